import type { Reranker } from '../embedding/reranker';
import type { RankedChunk } from './retriever';

/** What the reranker did for one question: recorded with the answer, so it can be replayed. */
export interface RerankRecord {
  modelId: string;
  /**
   * 'reranked': the top chunks were rescored and reordered; 'skipped': fewer than two chunks,
   * nothing to order; 'failed': the reranker threw, the fused order stands.
   */
  status: 'reranked' | 'skipped' | 'failed';
  /** The rescored chunks in fused order (fusedRank 1-based) with their scores. */
  scores: Array<{ chunkId: string; fusedRank: number; score: number }>;
  error?: string;
}

/** What the cross-encoder reads for a chunk: its "Title › Section" path, then the text. */
export function rerankPassage(
  chunk: Pick<RankedChunk, 'title' | 'sectionPath' | 'text'>,
): string {
  return `${chunk.sectionPath || chunk.title}\n${chunk.text ?? ''}`;
}

/**
 * Reorders the first `reranker.candidates` chunks by the reranker's scores (ties keep the fused
 * order); the rest keep their order below them; then keeps `k` and renumbers `rank`. It only
 * reorders the chunks it is given, which have passed the evidence decision and the relevance
 * filter: it cannot add a chunk, and an empty list (a refusal) stays empty. A failing reranker
 * leaves the fused order (`onError` reports it).
 */
export async function rerankChunks(
  chunks: RankedChunk[],
  question: string,
  reranker: Reranker,
  k: number,
  onError: (error: Error) => void,
): Promise<{ chunks: RankedChunk[]; record: RerankRecord }> {
  const top = chunks.slice(0, reranker.candidates);
  const record: RerankRecord = {
    modelId: reranker.modelId,
    status: 'skipped',
    scores: [],
  };
  let ordered = chunks;
  if (top.length >= 2) {
    try {
      const scores = await reranker.score(question, top.map(rerankPassage));
      if (
        scores.length !== top.length ||
        !scores.every(s => Number.isFinite(s))
      ) {
        throw new Error(
          `reranker returned ${scores.length} scores for ${top.length} passages ` +
            `(${scores
              .slice(0, 3)
              .join(', ')}...); expected one finite score each`,
        );
      }
      record.status = 'reranked';
      record.scores = top.map((c, i) => ({
        chunkId: c.chunkId,
        fusedRank: i + 1,
        score: scores[i],
      }));
      const byScore = [...record.scores].sort(
        (a, b) => b.score - a.score || a.fusedRank - b.fusedRank,
      );
      ordered = [
        ...byScore.map(s => top[s.fusedRank - 1]),
        ...chunks.slice(top.length),
      ];
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      record.status = 'failed';
      record.error = error.message;
      onError(error);
    }
  }
  return {
    chunks: ordered.slice(0, k).map((c, i) => ({ ...c, rank: i + 1 })),
    record,
  };
}
