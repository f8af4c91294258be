import { Knex } from 'knex';
import {
  assertEntityFilter,
  EntityCriteria,
  EntityFilter,
  mapCriteria,
} from '../permissions/entityFilter';
import { foldCase } from '../permissions/matchKeys';
import { Visibility } from '../permissions/visibility';

/**
 * THE module where the asker's visibility becomes SQL (decision record 0001): the criteria
 * compiler, the freshness guard, applying the predicate to a query, and the visible-row bases
 * every index read starts from. `permissions/` decides (typed criteria, no SQL); this applies.
 */

/** A parameterised SQL boolean expression over the `ask_docs_entities` alias below. */
export interface SqlPredicate {
  sql: string;
  bindings: unknown[];
}

/** Alias of `ask_docs_entities` inside the visibility subquery; compiled SQL refers to it. */
export const VISIBLE_ENTITY_ALIAS = 'ask_docs_vis_e';
const E = VISIBLE_ENTITY_ALIAS;

const foldAll = (values: string[]) => Array.from(new Set(values.map(foldCase)));

const KEY_COLUMNS = {
  kind: 'kind_key',
  namespace: 'namespace_key',
  name: 'name_key',
  owners: 'owner_keys',
  tags: 'tag_keys',
  labels: 'label_keys',
  annotations: 'annotation_keys',
} as const;

/**
 * `<column> -> key` is present (and holds the value). The columns hold attributes folded at
 * write time (matchKeys.ts) and the parameters are folded here the same way, so no lower() runs
 * in SQL: the database's collation cannot make the two sides disagree.
 */
function keyedValue(
  column: string,
  key: string,
  value: string | undefined,
): SqlPredicate {
  if (value === undefined) {
    return { sql: `(${E}.${column} -> ?::text) IS NOT NULL`, bindings: [key] };
  }
  return {
    sql: `(${E}.${column} -> ?::text) @> jsonb_build_array(?::text)`,
    bindings: [key, foldCase(value)],
  };
}

function compileLeaf(filter: EntityFilter): SqlPredicate {
  switch (filter.type) {
    case 'oneOf': {
      const values = foldAll(filter.values);
      if (values.length === 0) return { sql: 'false', bindings: [] };
      return {
        sql: `${E}.${KEY_COLUMNS[filter.field]} = ANY(?::text[])`,
        bindings: [values],
      };
    }
    case 'overlaps': {
      const values = foldAll(filter.values);
      if (values.length === 0) return { sql: 'false', bindings: [] };
      return {
        sql: `${E}.${KEY_COLUMNS[filter.field]} && ?::text[]`,
        bindings: [values],
      };
    }
    case 'nonEmpty':
      return { sql: `cardinality(${E}.tag_keys) > 0`, bindings: [] };
    case 'hasKey':
      return keyedValue(
        KEY_COLUMNS[filter.field],
        foldCase(filter.key),
        filter.value,
      );
    case 'hasSpec':
      // spec_keys is the catalog's flattening of spec (flattenSpec), computed at write time.
      return keyedValue(
        'spec_keys',
        `spec.${foldCase(filter.path)}`,
        filter.value,
      );
    case 'always':
      return { sql: 'true', bindings: [] };
    default:
      // Unreachable after validation; kept so a new leaf type cannot compile to "allow".
      throw new Error(`unknown filter ${JSON.stringify(filter)}`);
  }
}

function join(parts: SqlPredicate[], operator: 'AND' | 'OR'): SqlPredicate {
  return {
    sql: `(${parts.map(p => p.sql).join(` ${operator} `)})`,
    bindings: parts.flatMap(p => p.bindings),
  };
}

/**
 * Compiles a filter tree to one SQL boolean expression. Each leaf is NULL-safe (COALESCE to
 * false) so that NOT never turns an unknown into a match. Malformed trees throw.
 */
export function compileEntityCriteria(criteria: EntityCriteria): SqlPredicate {
  // Validate first (non-empty groups, known leaves), then compile the validated tree.
  const validated = mapCriteria<EntityFilter>(criteria, value => {
    assertEntityFilter(value);
    return value;
  });
  const walk = (node: EntityCriteria): SqlPredicate => {
    if ('anyOf' in node) return join(node.anyOf.map(walk), 'OR');
    if ('allOf' in node) return join(node.allOf.map(walk), 'AND');
    if ('not' in node) {
      const inner = walk(node.not);
      return { sql: `(NOT ${inner.sql})`, bindings: inner.bindings };
    }
    const leaf = compileLeaf(node);
    return { sql: `COALESCE((${leaf.sql}), false)`, bindings: leaf.bindings };
  };
  return walk(validated);
}

/**
 * Fail closed on stale visibility attributes (docs/architecture.md, "Visibility attributes").
 * True unless the plugin enabled the guard (max_staleness_seconds set) and the last complete
 * catalog listing started longer ago than that, or never happened. Uncorrelated, so Postgres
 * evaluates it once per query.
 */
export const FRESH_VISIBILITY_ATTRIBUTES_SQL = `NOT EXISTS (
  SELECT 1 FROM ask_docs_visibility_sync s
   WHERE s.max_staleness_seconds IS NOT NULL
     AND (s.last_success_at IS NULL
          OR s.last_success_at < now() - s.max_staleness_seconds * interval '1 second'))`;

/**
 * A row the predicate may match: attributes written by the current code (folded keys present,
 * rows from before migration 0004 wait for a sync), and still in the catalog.
 */
export function liveEntitySql(alias: string): string {
  return `${alias}.attributes_hash IS NOT NULL AND ${alias}.deleted_at IS NULL`;
}

/** Refuses anything but a Visibility that resolveVisibility() made. */
export function assertVisibility(
  visibility: unknown,
): asserts visibility is Visibility {
  // A structurally similar object (e.g. with a no-op apply) must not be accepted.
  if (!(visibility instanceof Visibility)) {
    throw new Error('retrieval requires a Visibility from resolveVisibility()');
  }
}

/** Compiled once per Visibility (it is immutable); undefined: nothing is visible. */
const predicates = new WeakMap<Visibility, SqlPredicate | undefined>();

function predicateOf(visibility: Visibility): SqlPredicate | undefined {
  if (predicates.has(visibility)) return predicates.get(visibility);
  const criteria = Visibility.criteriaOf(visibility);
  const predicate: SqlPredicate | undefined =
    criteria === undefined
      ? undefined
      : criteria.length === 0
      ? { sql: 'true', bindings: [] }
      : compileEntityCriteria({
          allOf: criteria as [EntityCriteria, ...EntityCriteria[]],
        });
  predicates.set(visibility, predicate);
  return predicate;
}

const COLUMN_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/**
 * Restricts `queryBuilder` to rows whose `entityRefColumn` is a visible source entity:
 * `WHERE <col> IN (SELECT entity_ref FROM ask_docs_entities WHERE <predicate>)`, or
 * `WHERE false` when nothing is visible. Entities no longer in the catalog, and all of them
 * while the attributes are staler than the plugin allows, match no predicate. Apply it to a
 * fresh builder; a builder that already has OR-ed conditions is refused because
 * `a OR b AND <visibility>` would not restrict `a`.
 */
export function applyVisibility<TQueryBuilder extends Knex.QueryBuilder>(
  visibility: Visibility,
  queryBuilder: TQueryBuilder,
  entityRefColumn: string,
  /**
   * 'array' compares with `= ANY(ARRAY(<visible entities>))`: the same rows, but the planner
   * then seeks an index by entity instead of reading every row and hashing. Callers pick it
   * when they know few chunks are visible (the planner cannot estimate the predicate).
   */
  shape: 'subquery' | 'array' = 'subquery',
  /** What the column holds: the entity's ref, or its number (posting lists, migration 0006). */
  key: 'entity_ref' | 'entity_no' = 'entity_ref',
): TQueryBuilder {
  assertVisibility(visibility);
  if (!COLUMN_PATTERN.test(entityRefColumn)) {
    throw new Error(
      `applyVisibility: invalid column ${JSON.stringify(entityRefColumn)}`,
    );
  }
  const statements: Array<{ grouping?: string; bool?: string }> =
    (queryBuilder as any)._statements ?? [];
  if (statements.some(s => s.grouping === 'where' && s.bool === 'or')) {
    throw new Error(
      'applyVisibility: the query already has OR conditions; apply visibility to a fresh query',
    );
  }
  const predicate = predicateOf(visibility);
  if (!predicate) {
    return queryBuilder.whereRaw('false') as TQueryBuilder;
  }
  const visible = (sub: Knex.QueryBuilder) =>
    sub
      .select(`${E}.${key === 'entity_no' ? 'entity_no' : 'entity_ref'}`)
      .from({ [E]: 'ask_docs_entities' })
      .whereRaw(liveEntitySql(E))
      .whereRaw(FRESH_VISIBILITY_ATTRIBUTES_SQL)
      .whereRaw(predicate.sql, predicate.bindings as Knex.RawBinding[]);
  if (shape === 'array') {
    const client = (queryBuilder as any).client;
    return queryBuilder.whereRaw('?? = ANY(ARRAY(?))', [
      entityRefColumn,
      visible(client.queryBuilder()),
    ]) as TQueryBuilder;
  }
  return queryBuilder.whereIn(entityRefColumn, visible) as TQueryBuilder;
}

/** Narrows retrieval to some source entities; not a security boundary (visibility is). */
export interface RetrievalScope {
  /** Entity refs, compared case-insensitively. Undefined or empty: no restriction. */
  entityRefs?: string[];
}

/** @internal Scope plus a chunk id restriction used to fill in scores for known candidates. */
export interface ChunkSelection extends RetrievalScope {
  chunkIds?: string[];
  /**
   * The caller knows few chunks are visible (from the statistics): the predicate then lets the
   * planner seek by entity (applyVisibility's 'array' shape). Same rows either way.
   */
  fewVisible?: boolean;
}

/** Which posting lists to read: a scope, and optionally only some entities' (by number). */
export interface ListScope
  extends RetrievalScope,
    Pick<ChunkSelection, 'fewVisible'> {
  entityNos?: number[];
}

const shapeOf = (selection?: ChunkSelection) =>
  selection?.fewVisible ? 'array' : 'subquery';

const scopeRefs = (scope?: RetrievalScope) =>
  (scope?.entityRefs?.filter(r => typeof r === 'string') ?? []).map(r =>
    r.toLowerCase(),
  );

function applySelection(
  qb: Knex.QueryBuilder,
  alias: string,
  selection?: ChunkSelection,
) {
  const refs = scopeRefs(selection);
  if (refs.length > 0) {
    qb.whereRaw(`lower(${alias}.entity_ref) = ANY(?::text[])`, [refs]);
  }
  if (selection?.chunkIds) {
    qb.whereRaw(`${alias}.chunk_id = ANY(?::text[])`, [selection.chunkIds]);
  }
}

/**
 * THE base of every chunk read: the chunks the asker may see (optionally narrowed), as the
 * derived table `c` with all `ask_docs_chunks` columns. Visibility is applied inside the
 * derived table, so nothing a caller adds to the outer query can widen it.
 */
export function visibleChunks(
  knex: Knex,
  visibility: Visibility,
  selection?: ChunkSelection,
): Knex.QueryBuilder {
  return visibleRows(knex, visibility, 'ask_docs_chunks', 'c', selection);
}

/**
 * Rows of an index table whose own `entity_ref` is visible, as the derived table `outer`. The
 * predicate is applied inside the derived table, so an outer query cannot widen it.
 */
function visibleRows(
  knex: Knex,
  visibility: Visibility,
  table: 'ask_docs_chunks' | 'ask_docs_entity_totals',
  outer: 'c' | 'et',
  selection?: ChunkSelection,
): Knex.QueryBuilder {
  assertVisibility(visibility);
  const alias = `v${outer}`;
  const inner = knex.select(`${alias}.*`).from({ [alias]: table });
  applyVisibility(visibility, inner, `${alias}.entity_ref`, shapeOf(selection));
  applySelection(inner, alias, selection);
  return knex.from(inner.as(outer));
}

/**
 * Chunks with their document's url, for the final fetch. The document's entity is checked as
 * well as the chunk's, so a denormalisation mismatch can only hide, never reveal.
 */
export function visibleChunkDetails(
  knex: Knex,
  visibility: Visibility,
  selection?: ChunkSelection,
): Knex.QueryBuilder {
  assertVisibility(visibility);
  const inner = knex
    .select('vc.*', 'vd.url as document_url')
    .from({ vc: 'ask_docs_chunks' })
    .join({ vd: 'ask_docs_documents' }, 'vd.document_id', 'vc.document_id');
  applyVisibility(visibility, inner, 'vc.entity_ref');
  applyVisibility(visibility, inner, 'vd.entity_ref');
  applySelection(inner, 'vc', selection);
  return knex.from(inner.as('c'));
}

/**
 * Posting lists (migration 0006) of visible entities, as the derived table `p` (key_id,
 * entity_no, df, postings): the only keyword data retrieval reads. The predicate applies to the
 * list's own entity number; a scope narrows by entity ref. Chunk ids do not apply to lists
 * (they hold chunk numbers): callers filter those after decoding.
 */
export function visiblePostings(
  knex: Knex,
  visibility: Visibility,
  scope?: ListScope,
): Knex.QueryBuilder {
  assertVisibility(visibility);
  const inner = knex.select('vp.*').from({ vp: 'ask_docs_postings' });
  applyVisibility(
    visibility,
    inner,
    'vp.entity_no',
    shapeOf(scope),
    'entity_no',
  );
  if (scope?.entityNos) {
    inner.whereRaw('vp.entity_no = ANY(?::int[])', [scope.entityNos]);
  }
  const refs = scopeRefs(scope);
  if (refs.length > 0) {
    inner.whereIn(
      'vp.entity_no',
      knex('ask_docs_entities')
        .select('entity_no')
        .whereRaw('lower(entity_ref) = ANY(?::text[])', [refs]),
    );
  }
  return knex.from(inner.as('p'));
}

/** Chunk count and summed chunk length of visible entities, as the derived table `et`. */
export function visibleEntityTotals(
  knex: Knex,
  visibility: Visibility,
  scope?: RetrievalScope,
): Knex.QueryBuilder {
  return visibleRows(knex, visibility, 'ask_docs_entity_totals', 'et', {
    entityRefs: scope?.entityRefs,
  });
}

/**
 * Vectors of one model and dimension for visible chunks, as the derived table `em`. The
 * predicate applies to the vectors' own entity_ref, which a foreign key ties to the chunk's
 * (migration 0005), so a filtered graph walk checks each candidate without a chunk lookup.
 * Ordering by `em.embedding::halfvec(<dimension>)` matches the partial HNSW index expression
 * once the planner flattens the derived table.
 */
export function visibleEmbeddings(
  knex: Knex,
  visibility: Visibility,
  options: { modelId: string; dimension: number; selection?: ChunkSelection },
): Knex.QueryBuilder {
  assertVisibility(visibility);
  const inner = knex
    .select('ve.chunk_id', 've.embedding')
    .from({ ve: 'ask_docs_embeddings' })
    .where('ve.model_id', options.modelId)
    .andWhere('ve.dimension', options.dimension);
  applyVisibility(
    visibility,
    inner,
    've.entity_ref',
    shapeOf(options.selection),
  );
  applySelection(inner, 've', options.selection);
  return knex.from(inner.as('em'));
}
