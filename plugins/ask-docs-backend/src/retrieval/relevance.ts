import { Config } from '@backstage/config';
import { z } from 'zod';

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

const entrySchema = z
  .object({
    minSimilarity: z.number().min(-1).max(1).optional(),
    minCoverage: z.number().min(0).max(1).optional(),
  })
  .strict();
const thresholdsSchema = z.record(entrySchema);

/**
 * Thresholds for an embedding model from `askDocs.retrieval.thresholds`:
 * `{ default: { minSimilarity, minCoverage }, '<modelId>': { ... } }`. A model entry overrides
 * the default field by field. Model ids are looked up as literal keys (they may contain dots).
 * Invalid values throw, so a typo in config is found at startup rather than silently ignored.
 */
export function readRelevanceThresholds(
  config: Config,
  modelId: string,
): RelevanceThresholds {
  const raw = config.getOptional('askDocs.retrieval.thresholds') ?? {};
  const parsed = thresholdsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `Invalid askDocs.retrieval.thresholds: ${parsed.error.message}`,
    );
  }
  const entries = parsed.data;
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
