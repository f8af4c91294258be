/**
 * Which family of embedder produced a vector; stored with the index so mixed spaces are detectable.
 */
export type EmbedderKind = 'transformers' | 'hashing-fallback';

/**
 * Turns text into fixed-size vectors. All vectors are L2-normalised, so cosine similarity equals
 * the dot product. Passages and queries are embedded separately because asymmetric models (e5)
 * expect different prefixes for each side.
 */
export interface Embedder {
  readonly modelId: string;
  readonly kind: EmbedderKind;
  readonly dimension: number;
  /** Set when this embedder stands in for a model that could not be loaded. */
  readonly fallbackReason?: string;
  /**
   * True when the vectors are computed from the language analysis (stopwords, lemma and stem
   * keys), so a changed analysis signature means the stored vectors are stale.
   */
  readonly dependsOnAnalysis?: boolean;
  embedPassages(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
}

/** What /health reports about the embedder. */
export interface EmbedderInfo {
  modelId: string;
  kind: EmbedderKind;
  dimension: number;
  note?: string;
}

/** Summarises an embedder for the health endpoint, making a fallback impossible to miss. */
export function embedderInfo(e: Embedder): EmbedderInfo {
  const info: EmbedderInfo = {
    modelId: e.modelId,
    kind: e.kind,
    dimension: e.dimension,
  };
  if (e.fallbackReason) {
    info.note =
      'Using the lexical hashing fallback instead of a semantic model: ' +
      `${e.fallbackReason}`;
  } else if (e.kind === 'hashing-fallback') {
    info.note =
      'Lexical hashing embedder (configured); similarity is based on shared words and word ' +
      'fragments, not meaning.';
  }
  return info;
}
