/** Top fused chunks a reranker rescores per question unless configured otherwise. */
export const DEFAULT_RERANK_CANDIDATES = 20;

/**
 * Scores (question, passage) pairs together, as a cross-encoder does; QuestionPipeline uses the
 * scores to reorder the top `candidates` retrieved chunks, never to add or drop one.
 */
export interface Reranker {
  readonly modelId: string;
  /** How many of the top fused chunks are rescored. */
  readonly candidates: number;
  /** One score per passage, in the order given; higher means more relevant. */
  score(question: string, passages: string[]): Promise<number[]>;
}

/** What /health and the start-up log report about the reranker. */
export interface RerankerInfo {
  modelId: string;
  /** False when it is configured but could not be loaded (allowFallback). */
  loaded: boolean;
  candidates: number;
  note?: string;
}
