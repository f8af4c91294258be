import { isStorableText } from './storableText';
import { stableJson } from './stableJson';
import { createHash } from 'crypto';
import { entityMatchKeys, foldCase } from '../permissions/matchKeys';
import { EntityRow } from './AskDocsStore';

/**
 * Hash of everything visibility and the entity row show (not the etag, which changes with any
 * edit, a description too; not the uid, which names the entity): the attribute sync rewrites a
 * row only when this changes.
 */
export function attributesHash(e: EntityRow): string {
  const { etag: _etag, uid: _uid, ...attributes } = e;
  return createHash('sha256').update(stableJson(attributes)).digest('hex');
}

/** Whether a string anywhere in the value (keys too) is one the database cannot store. */
function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return !isStorableText(value);
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  if (value && typeof value === 'object')
    return Object.entries(value).some(
      ([k, v]) => holdsUnstorable(k) || holdsUnstorable(v),
    );
  return false;
}

/**
 * The `ask_docs_entities` columns of a row: the attributes as the catalog has them plus their
 * folded `*_key` copies (the only columns the visibility predicate compares). Everything that
 * writes entity rows, test fixtures included, goes through here. Throws on attributes the
 * database would refuse, so a caller can tell which entity it was.
 */
export function entityColumns(e: EntityRow) {
  // The write would fail with no entity named.
  if (holdsUnstorable(e))
    throw new Error(
      `${e.entityRef}: an attribute holds NUL or a lone surrogate, which the database refuses`,
    );
  const keys = entityMatchKeys(e);
  return {
    entity_ref: e.entityRef,
    kind: foldCase(e.kind),
    namespace: foldCase(e.namespace),
    name: e.name,
    title: e.title,
    owners: e.owners,
    tags: e.tags,
    labels: JSON.stringify(e.labels),
    annotations: JSON.stringify(e.annotations),
    spec: JSON.stringify(e.spec),
    etag: e.etag,
    entity_uid: e.uid ?? null,
    ref_key: keys.refKey,
    kind_key: keys.kindKey,
    namespace_key: keys.namespaceKey,
    name_key: keys.nameKey,
    owner_keys: keys.ownerKeys,
    tag_keys: keys.tagKeys,
    label_keys: JSON.stringify(keys.labelKeys),
    annotation_keys: JSON.stringify(keys.annotationKeys),
    spec_keys: JSON.stringify(keys.specKeys),
    attributes_hash: attributesHash(e),
  };
}
