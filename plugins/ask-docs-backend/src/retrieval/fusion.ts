import type { EmbedderKind } from '../embedding';
import { tokenize } from '../language/tokenize';
import { queryWordMatcher, TextEvidence } from './proximity';
import type { PerModel } from '../settings';

export interface FusedItem {
  id: string;
  /** Sum over lists of weight / (k + rank). */
  score: number;
  /** 1-based rank of the item in each input list, undefined where absent. */
  ranks: Array<number | undefined>;
}

export const DEFAULT_RRF_K = 60;

/**
 * Reciprocal Rank Fusion: each list contributes weight / (k + rank) for the items it contains
 * (weight 1 by default), so an item ranked well by both retrievers beats one ranked first by
 * only one. Ties are broken
 * by the best single rank, then by id, so the order is deterministic.
 */
export function reciprocalRankFusion(
  lists: string[][],
  options: { k?: number; weights?: number[] } = {},
): FusedItem[] {
  const k = options.k ?? DEFAULT_RRF_K;
  if (!(k >= 0) || !Number.isFinite(k)) throw new Error(`invalid RRF k ${k}`);
  const weights = options.weights ?? lists.map(() => 1);
  if (
    weights.length !== lists.length ||
    weights.some(w => !(w >= 0) || !Number.isFinite(w))
  ) {
    throw new Error(
      `invalid RRF weights ${JSON.stringify(options.weights)} for ${
        lists.length
      } lists`,
    );
  }
  const items = new Map<string, FusedItem>();
  lists.forEach((list, listIndex) => {
    const seen = new Set<string>();
    list.forEach((id, position) => {
      if (seen.has(id)) return; // a list that repeats an id counts it once, at its best rank
      seen.add(id);
      let item = items.get(id);
      if (!item) {
        item = { id, score: 0, ranks: lists.map(() => undefined) };
        items.set(id, item);
      }
      item.ranks[listIndex] = position + 1;
      item.score += weights[listIndex] / (k + position + 1);
    });
  });
  const bestRank = (item: FusedItem) =>
    Math.min(...item.ranks.map(r => r ?? Infinity));
  return Array.from(items.values()).sort(
    (a, b) =>
      b.score - a.score ||
      bestRank(a) - bestRank(b) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** How much each retriever's ranks count in the fusion. */
export interface FusionWeights {
  vector: number;
  keyword: number;
}

/**
 * Defaults per kind of embedder. A semantic model's list carries meaning the keyword list lacks,
 * so both count fully. The hashing fallback's list is a weaker copy of the keyword signal (no
 * idf, no typo correction): at full weight its misses displace good keyword hits, so it only
 * breaks near-ties among them and adds what keyword search missed (docs/evaluation.md measures
 * the weights).
 */
export const DEFAULT_FUSION_WEIGHTS: Record<EmbedderKind, FusionWeights> = {
  transformers: { vector: 1, keyword: 1 },
  'hashing-fallback': { vector: 0.1, keyword: 1 },
};

/**
 * Weights for an embedding model from `askDocs.retrieval.fusionWeights` (validated by
 * readAskDocsConfig): `{ default: { vector, keyword }, '<modelId>': { ... } }` (field by field,
 * model over default over the built-in default for the embedder's kind). Throws when both are 0.
 */
export function readFusionWeights(
  entries: PerModel<FusionWeights>,
  embedder: { modelId: string; kind: EmbedderKind },
): FusionWeights {
  const pick = (field: keyof FusionWeights) =>
    entries[embedder.modelId]?.[field] ??
    entries.default?.[field] ??
    DEFAULT_FUSION_WEIGHTS[embedder.kind][field];
  const weights = { vector: pick('vector'), keyword: pick('keyword') };
  if (weights.vector + weights.keyword === 0)
    throw new Error(
      'askDocs.retrieval.fusionWeights: vector and keyword cannot both be 0',
    );
  return weights;
}

/**
 * idf-weighted share of the question's words that a chunk's section path ("Title › Section")
 * names. The path has no keys of its own in the index (its words are counted with the text),
 * so its words are compared with each query word's keys as keyword search compares them
 * (proximity.ts queryWordMatcher: "Pokladna" names "pokladnu", "pavlač" never "Pavlovi").
 */
export const titleCoverage: TextEvidence = (
  tokens,
  idfOf,
  sectionPath,
  match,
) => {
  const matcher = match ?? queryWordMatcher(tokens);
  const named = new Set(tokenize(sectionPath).flatMap(w => matcher(w)));
  let total = 0;
  let covered = 0;
  tokens.forEach((t, index) => {
    const idf = idfOf(t.token);
    if (!(idf > 0)) return;
    total += idf;
    if (named.has(index)) covered += idf;
  });
  return total > 0 ? covered / total : 0;
};

/** Evidence of a chunk in [0, 1] by id, and how much of the largest fused score it may add. */
export interface FusedBoost {
  values: ReadonlyMap<string, number>;
  weight: number;
}

/** Gives each fused candidate a new score and re-sorts. Stable: equal scores keep their order. */
export function rescoreFused<T extends { rrf: number }>(
  fused: readonly T[],
  score: (f: T) => number,
): T[] {
  return fused
    .map((f, i) => ({ f: { ...f, rrf: score(f) }, i }))
    .sort((a, b) => b.f.rrf - a.f.rrf || a.i - b.i)
    .map(x => x.f);
}

/**
 * Adds evidence to fused scores: Σ `weight × maxScore × value`, so a weight of 0.05 lifts a
 * chunk whose value is 1 by a twentieth of the largest possible fused score (a few ranks near
 * the top). Stable: equal scores keep their order.
 */
export function boostFused<T extends { id: string; rrf: number }>(
  fused: readonly T[],
  boosts: readonly FusedBoost[],
  maxScore: number,
): T[] {
  const active = boosts.filter(b => b.weight > 0);
  if (active.length === 0) return [...fused];
  const bonus = (id: string) =>
    active.reduce((s, b) => s + b.weight * (b.values.get(id) ?? 0), 0);
  return rescoreFused(fused, f => f.rrf + maxScore * bonus(f.id));
}

/** Section-title evidence alone (fusion.ts titleCoverage values): see boostFused. */
export function boostByTitle<T extends { id: string; rrf: number }>(
  fused: readonly T[],
  coverage: ReadonlyMap<string, number>,
  weight: number,
  maxScore: number,
): T[] {
  return boostFused(fused, [{ values: coverage, weight }], maxScore);
}

/**
 * How the two retrievers' lists become one order: `rrf` (ranks only, plus the title and phrase
 * boosts of boostFused) or `scores` (scoreFusion: the retrievers' own scores, each relative to
 * the best candidate's, and the candidates' evidence, added with fixed weights).
 */
export type FusionMethod = 'rrf' | 'scores';
export const FUSION_METHODS: readonly FusionMethod[] = ['rrf', 'scores'];

/**
 * Defaults per kind of embedder. For the hashing fallback the rank-only fusion throws away how
 * far ahead a keyword hit is (rank 1 and 2 differ by 1/61 − 1/62 whether their BM25 scores are
 * close or twice apart), so its boosts overturned clear keyword leads; score fusion ranks better
 * in both languages (decision record 0002, amendment 2026-12-05). A semantic model's scores are
 * unmeasured here: it keeps RRF.
 */
export const DEFAULT_FUSION_METHOD: Record<EmbedderKind, FusionMethod> = {
  transformers: 'rrf',
  'hashing-fallback': 'scores',
};

/** Weights of scoreFusion's terms; each term is in [0, 1]. */
export interface ScoreFusionWeights {
  /** BM25 score / the best candidate's. */
  keyword: number;
  /** Cosine similarity / the best candidate's. */
  vector: number;
  /** idf-weighted share of the question's words the chunk has (keyword coverage). */
  coverage: number;
  /** proximity.ts phraseShare. */
  phrase: number;
  /** titleCoverage of the chunk's "Title › Section" path. */
  title: number;
}

/**
 * Fitted on items-train (a pairwise logistic fit of the gold page's best chunk against the
 * chunks above it, over these five terms; decision record 0002) and rounded: keyword and vector
 * score count alike, the evidence terms a little less. With any one weight halved or raised by
 * half, English R@1 over the tuning sets stays above RRF's (decision record 0009, fifth round).
 */
export const DEFAULT_SCORE_FUSION_WEIGHTS: ScoreFusionWeights = {
  keyword: 1,
  vector: 1,
  coverage: 0.7,
  phrase: 0.6,
  title: 0.5,
};

/** A fused candidate's scores, null where the retriever or question has none. */
export interface ScoredCandidate {
  id: string;
  keywordScore: number | null;
  similarity: number | null;
  coverage: number | null;
}

/** The largest score scoreFusion can give: the sum of its weights. */
export function maxFusedScore(weights: ScoreFusionWeights): number {
  return (
    weights.keyword +
    weights.vector +
    weights.coverage +
    weights.phrase +
    weights.title
  );
}

/**
 * Score fusion: Σ weight × term over the terms of ScoreFusionWeights, written to `rrf` (the
 * fused score field) and sorted by it. The retrievers' scores are divided by the best among
 * the candidates, so only how close a chunk comes to the best counts, not the scale of BM25 or
 * of cosines; a retriever whose best score is not positive adds nothing. Missing evidence counts
 * 0. Stable: equal scores keep the input order (the RRF order the caller passes).
 */
export function scoreFusion<T extends ScoredCandidate>(
  candidates: readonly T[],
  evidence: {
    title: ReadonlyMap<string, number>;
    phrase: ReadonlyMap<string, number>;
  },
  weights: ScoreFusionWeights = DEFAULT_SCORE_FUSION_WEIGHTS,
): Array<T & { rrf: number }> {
  const best = (value: (c: T) => number | null) =>
    candidates.reduce((m, c) => Math.max(m, value(c) ?? 0), 0);
  const relative = (x: number | null, max: number) =>
    max > 0 ? Math.max(0, x ?? 0) / max : 0;
  const maxKeyword = best(c => c.keywordScore);
  const maxSimilarity = best(c => c.similarity);
  return candidates
    .map((c, i) => ({
      c: {
        ...c,
        rrf:
          weights.keyword * relative(c.keywordScore, maxKeyword) +
          weights.vector * relative(c.similarity, maxSimilarity) +
          weights.coverage * (c.coverage ?? 0) +
          weights.phrase * (evidence.phrase.get(c.id) ?? 0) +
          weights.title * (evidence.title.get(c.id) ?? 0),
      },
      i,
    }))
    .sort((a, b) => b.c.rrf - a.c.rrf || a.i - b.i)
    .map(x => x.c);
}
