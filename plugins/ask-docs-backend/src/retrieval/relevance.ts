import type { PerModel } from '../settings';

/** Evidence a chunk must show to be passed to the model. */
export interface RelevanceThresholds {
  /** Cosine similarity to the query; model-specific, as similarity scales differ between models. */
  minSimilarity: number;
  /** idf-weighted share of query tokens the chunk contains. */
  minCoverage: number;
}

/**
 * Used when config gives nothing. Semantic models put unrelated passages at 0.7-0.8 cosine,
 * so the bar is high; configure per model under `askDocs.retrieval.thresholds`.
 */
export const DEFAULT_RELEVANCE_THRESHOLDS: RelevanceThresholds = {
  minSimilarity: 0.8,
  minCoverage: 0.5,
};

/**
 * Thresholds for an embedding model from `askDocs.retrieval.thresholds` (validated by
 * readAskDocsConfig): `{ default: { minSimilarity, minCoverage }, '<modelId>': { ... } }`. A
 * model entry overrides the default field by field. Model ids are literal keys (they may
 * contain dots).
 */
export function readRelevanceThresholds(
  entries: PerModel<RelevanceThresholds>,
  modelId: string,
): RelevanceThresholds {
  const pick = (field: keyof RelevanceThresholds) =>
    entries[modelId]?.[field] ??
    entries.default?.[field] ??
    DEFAULT_RELEVANCE_THRESHOLDS[field];
  return {
    minSimilarity: pick('minSimilarity'),
    minCoverage: pick('minCoverage'),
  };
}

export interface Evidence {
  similarity?: number | null;
  coverage?: number | null;
}

/** A chunk is evidence when it is semantically close OR shares enough of the query's words. */
export function isRelevant(
  evidence: Evidence,
  thresholds: RelevanceThresholds,
): boolean {
  const { similarity, coverage } = evidence;
  return (
    (typeof similarity === 'number' &&
      similarity >= thresholds.minSimilarity) ||
    (typeof coverage === 'number' && coverage >= thresholds.minCoverage)
  );
}

/**
 * The evidence filter. Keeps order; an empty result means the knowledge base (as far as the
 * asker can see it) does not answer the question, and the model must not be called.
 */
export function filterRelevant<T extends Evidence>(
  chunks: T[],
  thresholds: RelevanceThresholds,
): T[] {
  return chunks.filter(c => isRelevant(c, thresholds));
}
