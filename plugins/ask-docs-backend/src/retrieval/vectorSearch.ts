import type { IndexReader } from '../database/IndexReader';
import { assertDimension, toVectorLiteral } from '../database/vectorIndex';
import type { ChunkSelection } from '../database/visibilityPredicate';

export interface VectorHit {
  chunkId: string;
  /** Cosine similarity, 1 - cosine distance. */
  similarity: number;
  /** 1-based. */
  rank: number;
}

export interface VectorSearchOptions {
  /** The asker's reads of the index (bound to their visibility). */
  reader: IndexReader;
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
 * Up to this many visible chunks, exact kNN beats HNSW on both counts: a restrictive filter
 * makes the graph walk visit many hidden vectors (slower) and stop early (lower recall), while
 * exact search reads only the visible vectors, sought by entity. At 300k chunks (decision record
 * 0011, seventh round) exact took 2 ms for 3,000 visible and 11 ms for 15,000, HNSW 25–38 ms
 * with recall@10 0.69–0.83; HNSW was faster only from about 30,000 (14 vs 21 ms).
 */
export const EXACT_SEARCH_UP_TO = 20_000;

/**
 * k nearest visible chunks by cosine distance. An index search makes its HNSW settings local to
 * its own transaction (IndexReader.nearestVectors): iterative index scans (pgvector >= 0.8) keep
 * scanning the graph until k rows pass the visibility filter, so a restrictive filter does not
 * starve the result.
 */
export async function vectorSearch(
  options: VectorSearchOptions,
): Promise<VectorHit[]> {
  const { reader, modelId, queryVector, selection } = options;
  const dimension = queryVector.length;
  assertDimension(dimension);
  toVectorLiteral(queryVector); // validate before any read
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

  // An exact search reads no HNSW setting: one statement, no transaction (three round trips
  // less; the fill-ins of every question search exactly).
  const rows = await reader.nearestVectors({
    modelId,
    queryVector,
    k,
    // Exact over few visible vectors: seek them by entity rather than scan every vector.
    selection: { ...selection, fewVisible: strategy === 'exact' && fewVisible },
    mode:
      strategy === 'exact'
        ? { exact: true }
        : { efSearch, indexOnly: strategy === 'index' },
  });

  // relaxed_order may return rows slightly out of order; re-sort by the exact distance.
  return (
    rows
      .map(r => ({ chunkId: r.chunkId, similarity: 1 - r.distance }))
      // A zero vector has no cosine distance (NaN); it is no evidence of anything.
      .filter(hit => Number.isFinite(hit.similarity))
      .sort(
        (a, b) =>
          b.similarity - a.similarity || a.chunkId.localeCompare(b.chunkId),
      )
      .map((hit, i) => ({ ...hit, rank: i + 1 }))
  );
}
