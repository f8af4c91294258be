import {
  Entity,
  parseEntityRef,
  RELATION_OWNED_BY,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { EntityRow } from '../database/AskDocsStore';

/** The visibility attributes permission rules are evaluated against (decision record 0001). */
export function entityRow(entity: Entity): EntityRow {
  const namespace = entity.metadata.namespace ?? 'default';
  // Owners are the ownedBy relations the catalog resolved, as its isEntityOwner rule reads them;
  // spec.owner is the unresolved claim and grants nothing (an entity without relations has no
  // owners). Folding happens once, when the row is written (entityColumns).
  const owners = new Set<string>();
  for (const r of entity.relations ?? []) {
    if (r.type === RELATION_OWNED_BY && typeof r.targetRef === 'string')
      owners.add(r.targetRef);
  }
  return {
    entityRef: stringifyEntityRef(entity),
    kind: entity.kind,
    namespace,
    name: entity.metadata.name,
    title: entity.metadata.title ?? entity.metadata.name,
    owners: [...owners],
    tags: entity.metadata.tags ?? [],
    labels: entity.metadata.labels ?? {},
    annotations: entity.metadata.annotations ?? {},
    spec: (entity.spec as Record<string, unknown>) ?? {},
    etag: entity.metadata.etag ?? entity.metadata.uid ?? '',
    ...(entity.metadata.uid ? { uid: entity.metadata.uid } : {}),
  };
}

/** Portal path of an entity page. */
export function entityUrl(entityRef: string): string {
  const { kind, namespace, name } = parseEntityRef(entityRef);
  return `/catalog/${encodeURIComponent(namespace)}/${encodeURIComponent(
    kind.toLocaleLowerCase('en-US'),
  )}/${encodeURIComponent(name)}`;
}

/**
 * The namespace, kind and name TechDocs keeps an entity's site under, and its reader's URL
 * names: lower-cased (String#toLowerCase, as its publishers do), or as the entity spells all
 * three with TechDocs' `techdocs.legacyUseCaseSensitiveTripletPaths`.
 */
export function techDocsTriplet(
  entity: { namespace?: string; kind: string; name: string },
  legacyCase = false,
): [string, string, string] {
  const spelled: [string, string, string] = [
    entity.namespace ?? 'default',
    entity.kind,
    entity.name,
  ];
  return legacyCase
    ? spelled
    : (spelled.map(part => part.toLowerCase()) as [string, string, string]);
}

/** Portal path of a TechDocs page (directory-style URL as TechDocs renders it). */
export function techDocsUrl(
  entity: { namespace?: string; kind: string; name: string },
  pageUrlPath: string,
  legacyCase = false,
): string {
  return `/docs/${techDocsTriplet(entity, legacyCase)
    .map(encodeURIComponent)
    .join('/')}/${pageUrlPath}`;
}
