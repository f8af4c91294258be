import { Knex } from 'knex';
import { AskDocsEntityAttributes } from '../permissions/entityFilter';
import { entityMatchKeys, foldCase } from '../permissions/matchKeys';
import { stableJson } from './stableJson';
import {
  FRESH_VISIBILITY_ATTRIBUTES_SQL,
  liveEntitySql,
} from './visibilityPredicate';

/*
 * The permission framework's resource loader for `ask-docs-chunk` (rules.ts defines the rules,
 * plugin.ts registers this next to them). It lives here, not in rules.ts, because it reads the
 * index; rules.ts cannot import the database layer without a cycle (the layer imports
 * visibility.ts, which imports the rules).
 */

interface EntityRowRaw {
  entity_ref: string;
  kind: string;
  namespace: string;
  name: string;
  title: string;
  owners: string[] | null;
  tags: string[] | null;
  labels: Record<string, string> | null;
  annotations: Record<string, string> | null;
  spec: AskDocsEntityAttributes['spec'] | null;
}

function toAttributes(row: EntityRowRaw): AskDocsEntityAttributes {
  return {
    entityRef: row.entity_ref,
    kind: row.kind,
    namespace: row.namespace,
    name: row.name,
    title: row.title,
    owners: row.owners ?? [],
    tags: row.tags ?? [],
    labels: row.labels ?? {},
    annotations: row.annotations ?? {},
    spec: row.spec ?? {},
  };
}

/** Every rule's `apply` reads the match keys only: equal keys, equal decisions. */
const decideAlike = (a: AskDocsEntityAttributes, b: AskDocsEntityAttributes) =>
  // Match keys hold sets: their order says nothing.
  stableJson(entityMatchKeys(a), true) === stableJson(entityMatchKeys(b), true);

const ATTRIBUTE_COLUMNS = [
  'entity_ref',
  'kind',
  'namespace',
  'name',
  'title',
  'owners',
  'tags',
  'labels',
  'annotations',
  'spec',
];

/**
 * `getResources` for `addResourceType`: loads entity attributes by entity ref (case-insensitive,
 * through the folded `ref_key`), or by chunk id for refs that are not entity refs. Unknown refs,
 * entities gone from the catalog, refs whose live rows disagree and every ref while the
 * attributes are stale give `undefined` (deny). This reads entity attributes only, never chunk
 * text.
 */
export function createAskDocsChunkResourceLoader(knex: Knex) {
  const live = (alias: string) => (qb: Knex.QueryBuilder) =>
    qb.whereRaw(liveEntitySql(alias)).whereRaw(FRESH_VISIBILITY_ATTRIBUTES_SQL);
  return async (
    resourceRefs: string[],
  ): Promise<Array<AskDocsEntityAttributes | undefined>> => {
    if (resourceRefs.length === 0) return [];
    const folded = Array.from(new Set(resourceRefs.map(foldCase)));
    const byEntity: EntityRowRaw[] = await knex('ask_docs_entities as e')
      .select(ATTRIBUTE_COLUMNS.map(c => `e.${c}`))
      .whereRaw('e.ref_key = ANY(?::text[])', [folded])
      .modify(live('e'));
    // Folded ref → attributes; undefined (deny) when live rows of that ref disagree: after a
    // change of letter case the old row stays live until the next sync, and which one the
    // database returns last is arbitrary.
    const entities = new Map<string, AskDocsEntityAttributes | undefined>();
    for (const row of byEntity) {
      const key = foldCase(row.entity_ref);
      const attributes = toAttributes(row);
      const seen = entities.get(key);
      if (!entities.has(key)) entities.set(key, attributes);
      else if (!seen || !decideAlike(seen, attributes))
        entities.set(key, undefined);
    }

    const chunkRefs = resourceRefs.filter(r => !entities.has(foldCase(r)));
    const byChunk = new Map<string, AskDocsEntityAttributes>();
    if (chunkRefs.length > 0) {
      const rows = await knex('ask_docs_chunks as c')
        .join('ask_docs_entities as e', 'e.entity_ref', 'c.entity_ref')
        .select('c.chunk_id', ...ATTRIBUTE_COLUMNS.map(c => `e.${c}`))
        .whereIn('c.chunk_id', chunkRefs)
        .modify(live('e'));
      for (const row of rows) byChunk.set(row.chunk_id, toAttributes(row));
    }
    return resourceRefs.map(r =>
      entities.has(foldCase(r)) ? entities.get(foldCase(r)) : byChunk.get(r),
    );
  };
}
