import { Knex } from 'knex';
import { Visibility } from '../permissions/visibility';
import {
  assertDimension,
  embeddingExpression,
  VECTOR_TYPE,
} from './vectorIndex';
import { ChunkSelection, visibleEmbeddings } from './visibleChunks';

export interface VectorHit {
  chunkId: string;
  /** Cosine similarity, 1 - cosine distance. */
  similarity: number;
  /** 1-based. */
  rank: number;
}

export interface VectorSearchOptions {
  knex: Knex;
  visibility: Visibility;
  selection?: ChunkSelection;
  modelId: string;
  queryVector: number[];
  k: number;
  /** HNSW candidate list size; defaults to max(100, 2k). */
  efSearch?: number;
  /**
   * 'exact' compares the query with every visible vector (ground truth, evaluation, few visible
   * chunks); 'index' discourages sequential scans so the HNSW index is used even on small
   * tables; 'auto' is exact when `visibleChunks` is at most `exactUpTo`, else the planner's choice.
   */
  strategy?: 'auto' | 'exact' | 'index';
  /** Chunks the asker can see, when the caller already counted them (keyword statistics). */
  visibleChunks?: number;
  /** 'auto' searches exactly up to this many visible chunks; default EXACT_SEARCH_UP_TO. */
  exactUpTo?: number;
}

/**
 * Below this many visible chunks, exact kNN beats HNSW on both counts: a restrictive filter
 * makes the graph walk visit many hidden vectors (slower) and stop early (lower recall), while
 * exact search reads only the visible vectors by primary key (docs/evaluation.md, finding 5).
 */
export const EXACT_SEARCH_UP_TO = 2000;

export function toVectorLiteral(vector: number[]): string {
  if (
    !Array.isArray(vector) ||
    vector.length === 0 ||
    !vector.every(v => typeof v === 'number' && Number.isFinite(v))
  ) {
    throw new Error('query vector must be a non-empty array of finite numbers');
  }
  return `[${vector.join(',')}]`;
}

/**
 * The kNN query itself (exposed so tests can EXPLAIN it): ORDER BY the same typed-cast
 * expression as the partial HNSW index, over the visible embeddings only.
 */
export function vectorQuery(
  knex: Knex,
  visibility: Visibility,
  options: {
    modelId: string;
    queryVector: number[];
    k: number;
    selection?: ChunkSelection;
    /** Order by an expression the HNSW index does not match, so no graph walk is possible. */
    exact?: boolean;
  },
): Knex.QueryBuilder {
  const dimension = options.queryVector.length;
  const literal = toVectorLiteral(options.queryVector);
  const distance = `${embeddingExpression(
    'em',
    dimension,
  )} <=> ?::${VECTOR_TYPE}(${dimension})`;
  return visibleEmbeddings(knex, visibility, {
    modelId: options.modelId,
    dimension,
    selection: options.selection,
  })
    .select('em.chunk_id', knex.raw(`${distance} AS distance`, [literal]))
    .orderByRaw(options.exact ? `(${distance}) + 0` : distance, [literal])
    .limit(options.k);
}

/** SET LOCAL in a savepoint: an older pgvector without the setting does not abort the search. */
async function trySetLocal(
  trx: Knex.Transaction,
  statement: string,
): Promise<boolean> {
  try {
    await trx.transaction(async sp => {
      await sp.raw(statement);
    });
    return true;
  } catch {
    // Setting unknown on this server: search still works, with plain (non-iterative) scans.
    return false;
  }
}

/**
 * Whether the server has iterative index scans (pgvector >= 0.8), learnt on a database's first
 * search: later searches then set everything in one statement, without a savepoint (three
 * round trips less per search).
 */
const iterativeScans = new WeakMap<Knex, boolean>();

/** The HNSW settings of one search, local to its transaction. */
async function setSearchLocals(
  knex: Knex,
  trx: Knex.Transaction,
  settings: { efSearch: number; indexOnly: boolean },
): Promise<void> {
  let iterative = iterativeScans.get(knex);
  if (iterative === undefined) {
    iterative = await trySetLocal(
      trx,
      'SET LOCAL hnsw.iterative_scan = relaxed_order',
    );
    iterativeScans.set(knex, iterative);
  }
  const locals: Array<[string, string]> = [
    ['hnsw.ef_search', String(settings.efSearch)],
  ];
  if (iterative) locals.push(['hnsw.iterative_scan', 'relaxed_order']);
  if (settings.indexOnly) locals.push(['enable_seqscan', 'off']);
  try {
    await trx.raw(
      `SELECT ${locals.map(() => 'set_config(?, ?, true)').join(', ')}`,
      locals.flat(),
    );
  } catch (error) {
    iterativeScans.delete(knex); // the server changed (e.g. a failover): probe again next time
    throw error;
  }
}

/**
 * k nearest visible chunks by cosine distance. An index search runs in a transaction so the
 * HNSW settings are local to it: iterative index scans (pgvector >= 0.8) keep scanning the
 * graph until k rows pass the visibility filter, so a restrictive filter does not starve the
 * result.
 */
export async function vectorSearch(
  options: VectorSearchOptions,
): Promise<VectorHit[]> {
  const { knex, visibility, modelId, queryVector, selection } = options;
  const dimension = queryVector.length;
  assertDimension(dimension);
  toVectorLiteral(queryVector); // validate before opening a transaction
  const k = Math.max(0, Math.floor(options.k));
  if (k === 0) return [];
  const efSearch = Math.min(
    1000,
    Math.max(1, Math.floor(options.efSearch ?? Math.max(100, 2 * k))),
  );
  const requested = options.strategy ?? 'auto';
  const fewVisible =
    typeof options.visibleChunks === 'number' &&
    options.visibleChunks <= (options.exactUpTo ?? EXACT_SEARCH_UP_TO);
  const strategy = requested === 'auto' && fewVisible ? 'exact' : requested;

  const search = (db: Knex) =>
    vectorQuery(db, visibility, {
      modelId,
      queryVector,
      k,
      // Exact over few visible vectors: seek them by entity rather than scan every vector.
      selection: {
        ...selection,
        fewVisible: strategy === 'exact' && fewVisible,
      },
      exact: strategy === 'exact',
    });
  // An exact search reads no HNSW setting: one statement, no transaction (three round trips
  // less; the fill-ins of every question search exactly).
  const rows: Array<{ chunk_id: string; distance: number }> =
    strategy === 'exact'
      ? await search(knex)
      : await knex.transaction(async trx => {
          await setSearchLocals(knex, trx, {
            efSearch,
            indexOnly: strategy === 'index',
          });
          return search(trx);
        });

  // relaxed_order may return rows slightly out of order; re-sort by the exact distance.
  return (
    rows
      .map(r => ({ chunkId: r.chunk_id, similarity: 1 - Number(r.distance) }))
      // A zero vector has no cosine distance (NaN); it is no evidence of anything.
      .filter(hit => Number.isFinite(hit.similarity))
      .sort(
        (a, b) =>
          b.similarity - a.similarity || a.chunkId.localeCompare(b.chunkId),
      )
      .map((hit, i) => ({ ...hit, rank: i + 1 }))
  );
}
