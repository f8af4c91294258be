import { Knex } from 'knex';
import { Visibility } from '../permissions/visibility';

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
   * planner seek by entity (Visibility.apply's 'array' shape). Same rows either way.
   */
  fewVisible?: boolean;
}

/** Up to this many visible chunks, reads seek by visible entity (`fewVisible`). */
export const FEW_VISIBLE_CHUNKS = 2000;

const shapeOf = (selection?: ChunkSelection) =>
  selection?.fewVisible ? 'array' : 'subquery';

function assertVisibility(
  visibility: unknown,
): asserts visibility is Visibility {
  // A structurally similar object with a no-op apply must not be accepted.
  if (!(visibility instanceof Visibility)) {
    throw new Error('retrieval requires a Visibility from resolveVisibility()');
  }
}

function applySelection(
  qb: Knex.QueryBuilder,
  alias: string,
  selection?: ChunkSelection,
) {
  const refs = selection?.entityRefs?.filter(r => typeof r === 'string') ?? [];
  if (refs.length > 0) {
    qb.whereRaw(`lower(${alias}.entity_ref) = ANY(?::text[])`, [
      refs.map(r => r.toLowerCase()),
    ]);
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
  visibility.apply(inner, `${alias}.entity_ref`, shapeOf(selection));
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
  visibility.apply(inner, 'vc.entity_ref');
  visibility.apply(inner, 'vd.entity_ref');
  applySelection(inner, 'vc', selection);
  return knex.from(inner.as('c'));
}

/** Which posting lists to read: a scope, and optionally only some entities' (by number). */
export interface ListScope
  extends RetrievalScope,
    Pick<ChunkSelection, 'fewVisible'> {
  entityNos?: number[];
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
  visibility.apply(inner, 'vp.entity_no', shapeOf(scope), 'entity_no');
  if (scope?.entityNos) {
    inner.whereRaw('vp.entity_no = ANY(?::int[])', [scope.entityNos]);
  }
  const refs = scope?.entityRefs?.filter(r => typeof r === 'string') ?? [];
  if (refs.length > 0) {
    inner.whereIn(
      'vp.entity_no',
      knex('ask_docs_entities')
        .select('entity_no')
        .whereRaw('lower(entity_ref) = ANY(?::text[])', [
          refs.map(r => r.toLowerCase()),
        ]),
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
  visibility.apply(inner, 've.entity_ref', shapeOf(options.selection));
  applySelection(inner, 've', options.selection);
  return knex.from(inner.as('em'));
}
