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

/** Starting ingestion runs, reading progress and other users' answers. */
export const askDocsAdminPermission = createPermission({
  name: 'ask-docs.admin',
  attributes: { action: 'update' },
});

export const askDocsPermissions = [
  askDocsChunkReadPermission,
  askDocsAskPermission,
  askDocsAdminPermission,
];

