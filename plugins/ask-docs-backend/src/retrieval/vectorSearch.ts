import { Knex } from 'knex';
import { Visibility } from '../permissions/visibility';
import { embeddingExpression, assertDimension } from './vectorIndex';
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
   * 'auto' lets the planner choose; 'exact' disables index scans (ground truth, evaluation);
   * 'index' discourages sequential scans so the HNSW index is used even on small tables.
   */
  strategy?: 'auto' | 'exact' | 'index';
}

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
  },
): Knex.QueryBuilder {
  const dimension = options.queryVector.length;
  const literal = toVectorLiteral(options.queryVector);
  const distance = `${embeddingExpression(
    'em',
    dimension,
  )} <=> ?::vector(${dimension})`;
  return visibleEmbeddings(knex, visibility, {
    modelId: options.modelId,
    dimension,
    selection: options.selection,
  })
    .select('em.chunk_id', knex.raw(`${distance} AS distance`, [literal]))
    .orderByRaw(distance, [literal])
    .limit(options.k);
}

/** SET LOCAL inside a savepoint, so an older pgvector without the setting does not abort the search. */
async function trySetLocal(
  trx: Knex.Transaction,
  statement: string,
): Promise<void> {
  try {
    await trx.transaction(async sp => {
      await sp.raw(statement);
    });
  } catch {
    // Setting unknown on this server: search still works, with plain (non-iterative) scans.
  }
}

/**
 * k nearest visible chunks by cosine distance. Runs in a transaction so the HNSW settings are
 * local to it: iterative index scans (pgvector >= 0.8) keep scanning the graph until k rows pass
 * the visibility filter, so a restrictive filter does not starve the result.
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
  const strategy = options.strategy ?? 'auto';

  const rows: Array<{ chunk_id: string; distance: number }> =
    await knex.transaction(async trx => {
      await trySetLocal(trx, 'SET LOCAL hnsw.iterative_scan = relaxed_order');
      await trx.raw(`SET LOCAL hnsw.ef_search = ${efSearch}`);
      if (strategy === 'exact') {
        await trx.raw('SET LOCAL enable_indexscan = off');
      } else if (strategy === 'index') {
        await trx.raw('SET LOCAL enable_seqscan = off');
      }
      return vectorQuery(trx, visibility, {
        modelId,
        queryVector,
        k,
        selection,
      });
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
