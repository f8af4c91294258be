import { createPermission } from '@backstage/plugin-permission-common';

/** Resource type of an indexed chunk; its conditions are about the chunk's source entity. */
export const ASK_DOCS_CHUNK_RESOURCE_TYPE = 'ask-docs-chunk';

/**
 * Reading a chunk. Conditional decisions become the SQL visibility predicate that every
 * chunk query applies (decision record 0001). The backend's permission rules
 * (owner, kind, namespace, tag, label, annotation) are registered for this resource type.
 */
export const askDocsChunkReadPermission = createPermission({
  name: 'ask-docs.chunk.read',
  attributes: { action: 'read' },
  resourceType: ASK_DOCS_CHUNK_RESOURCE_TYPE,
});

/** Asking a question at all. */
export const askDocsAskPermission = createPermission({
  name: 'ask-docs.ask',
  attributes: { action: 'read' },
});

/**
 * Reading other principals' stored answers (audit replay). The asker always reads their own.
 * Service principals also need a grant in `askDocs.permissions.services` (see the README).
 */
export const askDocsAuditReadPermission = createPermission({
  name: 'ask-docs.audit.read',
  attributes: { action: 'read' },
});

/**
 * Starting ingestion runs and reading their progress. Service principals also need a grant in
 * `askDocs.permissions.services` (see the README).
 */
export const askDocsIngestionRunPermission = createPermission({
  name: 'ask-docs.ingestion.run',
  attributes: { action: 'update' },
});

/** Administrative permissions: never granted to a service principal by default. */
export const askDocsAdministrativePermissions = [
  askDocsAuditReadPermission,
  askDocsIngestionRunPermission,
];

export const askDocsPermissions = [
  askDocsChunkReadPermission,
  askDocsAskPermission,
  ...askDocsAdministrativePermissions,
];
