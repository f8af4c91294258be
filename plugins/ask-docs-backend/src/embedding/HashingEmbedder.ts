import type { Analyzers } from '../language';
import { tokenize } from '../language/tokenize';
import { Embedder } from './types';
import { l2NormalizeInPlace } from './vectorMath';

export const DEFAULT_HASHING_DIMENSION = 384;

/**
 * Function words in the languages we index. A stateless embedder has no IDF, so without this
 * list every English sentence would look alike because of "the" and "is".
 */
const STOPWORDS = new Set(
  (
    'a an and are as at be by for from has have how i if in into is it its of on or that the ' +
    'this to was were what when where which who why will with do does can you your we our not ' +
    'no a i k o s u v z aby ale ani az by byl byla bylo co do i jak jako je jeho jej jen jsem ' +
    'jsi jsme jsou ke kde kdy ktera ktere ktery na nebo neni od po pod pro proc se si ta tak ' +
    'tam to tu ve za ze'
  ).split(' '),
);

/**
 * Relative weight of each feature family in the final vector. `lemma` is only filled with
 * language analyzers (v2); without them `stem` is a 5-letter prefix (v1). Character n-grams
 * keep their weight in v2: lowering it to 0.6 cost more ranking quality (docs/evaluation.md)
 * than it gained in keeping "pes" away from "pesto", which the keyword keys already do.
 */
const GROUP_WEIGHTS = {
  word: 1.0,
  lemma: 1.0,
  stem: 0.6,
  bigram: 0.25,
  chars: 1.2,
} as const;
type Group = keyof typeof GROUP_WEIGHTS;
const GROUPS = Object.keys(GROUP_WEIGHTS) as Group[];

/** Lowercase and strip diacritics so "Nasazení" and "nasazeni" share every feature. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function tokenizeWords(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

const GROUP_SEEDS: Record<Group, number> = {
  word: 0x811c9dc5,
  lemma: 0x27d4eb2f,
  stem: 0x9e3779b9,
  bigram: 0x85ebca6b,
  chars: 0xc2b2ae35,
};

/**
 * FNV-1a over s[start, end) with a murmur3 finaliser: cheap, deterministic across runs and
 * platforms, and hashes n-grams without allocating substrings. The seed separates feature families.
 */
export function hash32(
  s: string,
  start: number,
  end: number,
  seed: number,
): number {
  let h = seed;
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Feature hash -> occurrence count, per family. */
type FeatureCounts = Record<Group, Map<number, number>>;

function emptyCounts(): FeatureCounts {
  return {
    word: new Map(),
    lemma: new Map(),
    stem: new Map(),
    bigram: new Map(),
    chars: new Map(),
  };
}

function counter(groups: FeatureCounts) {
  return (g: Group, s: string, start = 0, end = s.length) => {
    // int32 keys stay small integers inside Map, which is several times faster than doubles.
    const h = hash32(s, start, end, GROUP_SEEDS[g]) | 0;
    const m = groups[g];
    m.set(h, (m.get(h) ?? 0) + 1);
  };
}

function addCharGrams(add: ReturnType<typeof counter>, folded: string) {
  const padded = `<${folded}>`;
  for (let n = 3; n <= 5; n++) {
    for (let i = 0; i + n <= padded.length; i++) add('chars', padded, i, i + n);
  }
}

/** v1: folded words, 5-letter prefixes, character n-grams, word bigrams. */
function collectFeatures(text: string): FeatureCounts {
  const groups = emptyCounts();
  const add = counter(groups);
  const words = tokenizeWords(text);
  const meaningful = words.filter(w => !STOPWORDS.has(w));
  // A text made only of function words still deserves a non-degenerate vector.
  const content = meaningful.length > 0 ? meaningful : words;
  for (const w of content) {
    add('word', w);
    // A 5-letter prefix is a crude but effective stemmer for inflected languages like Czech.
    if (w.length > 5) add('stem', w, 0, 5);
    addCharGrams(add, w);
  }
  // Bigrams over content words only, so "nasazení do produkce" pairs the meaningful words.
  for (let i = 0; i + 1 < content.length; i++)
    add('bigram', `${content[i]} ${content[i + 1]}`);
  return groups;
}

/**
 * v2: the keyword index's own analysis. Every word contributes its lemma and stem keys in each
 * configured language (the text's language is not known for questions, so both sides use all
 * of them alike), which makes "psa" and "pes" share features the way they share postings;
 * bigrams pair first lemmas. Folded words and character n-grams stay for typos and missing
 * diacritics.
 */
function collectAnalyzedFeatures(
  text: string,
  analyzers: Analyzers,
): FeatureCounts {
  const groups = emptyCounts();
  const add = counter(groups);
  const langs = analyzers.languages.map(l => analyzers.get(l));
  const words = tokenize(text);
  const isStop = (w: string) =>
    STOPWORDS.has(foldText(w)) || langs.some(a => a.isStopword(w));
  const meaningful = words.filter(w => !isStop(w));
  const content = meaningful.length > 0 ? meaningful : words;
  const heads: string[] = [];
  for (const w of content) {
    const folded = foldText(w);
    add('word', folded);
    addCharGrams(add, folded);
    const lemmas = new Set<string>();
    const stems = new Set<string>();
    for (const a of langs) {
      const keys = a.keysForWord(w);
      for (const l of keys.lemmas) lemmas.add(foldText(l));
      stems.add(foldText(keys.stem));
    }
    for (const l of lemmas) add('lemma', l);
    for (const st of stems) add('stem', st);
    heads.push(lemmas.values().next().value ?? folded);
  }
  for (let i = 0; i + 1 < heads.length; i++)
    add('bigram', `${heads[i]} ${heads[i + 1]}`);
  return groups;
}

export interface HashingEmbedderOptions {
  dimension?: number;
  /** Why a semantic model is not in use; surfaced on /health. */
  fallbackReason?: string;
  /**
   * The configured language analyzers. With them the embedder is v2 (lemma and stem features,
   * model id `hashing-fallback-v2-<languages>-<dimension>`); without, v1.
   */
  analyzers?: Analyzers;
}

/**
 * Offline fallback embedder: signed feature hashing of words, bigrams, lemma and stem keys (or word
 * prefixes without analyzers) and character 3–5-grams with sublinear term frequency. It captures
 * lexical overlap (including across Czech inflections via shared fragments), not meaning, and is
 * labelled as such everywhere it is reported.
 */
export class HashingEmbedder implements Embedder {
  readonly kind = 'hashing-fallback' as const;
  readonly modelId: string;
  readonly dimension: number;
  readonly fallbackReason?: string;
  /** v2 hashes the analyzers' keys and skips their stopwords. */
  readonly dependsOnAnalysis: boolean;
  private readonly analyzers?: Analyzers;

  constructor(options: HashingEmbedderOptions = {}) {
    const dimension = options.dimension ?? DEFAULT_HASHING_DIMENSION;
    if (!Number.isInteger(dimension) || dimension < 16 || dimension > 16000) {
      throw new Error(
        `Hashing embedder dimension must be an integer between 16 and 16000, got ${dimension}`,
      );
    }
    this.dimension = dimension;
    this.analyzers = options.analyzers;
    this.dependsOnAnalysis = this.analyzers !== undefined;
    // The vectors depend on the analyzers, so their languages are part of the model id: a
    // changed language list re-embeds instead of mixing two vector spaces.
    this.modelId = this.analyzers
      ? `hashing-fallback-v2-${this.analyzers.languages.join('+')}-${dimension}`
      : `hashing-fallback-v1-${dimension}`;
    this.fallbackReason = options.fallbackReason;
  }

  async embedPassages(texts: string[]): Promise<number[][]> {
    return texts.map(t => this.embedSync(t));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.embedSync(text);
  }

  embedSync(text: string): number[] {
    const out = new Float64Array(this.dimension);
    const groups = this.analyzers
      ? collectAnalyzedFeatures(text, this.analyzers)
      : collectFeatures(text);
    const part = new Float64Array(this.dimension);
    let any = false;
    for (const g of GROUPS) {
      if (groups[g].size === 0) continue;
      any = true;
      part.fill(0);
      for (const [key, count] of groups[g]) {
        const h = key >>> 0;
        const sign = h & 1 ? 1 : -1;
        part[(h >>> 1) % this.dimension] += sign * (1 + Math.log(count));
      }
      // Normalise per family first so long words' many n-grams cannot drown out whole-word matches.
      l2NormalizeInPlace(part);
      for (let i = 0; i < this.dimension; i++)
        out[i] += GROUP_WEIGHTS[g] * part[i];
    }
    if (!any) {
      // Empty or punctuation-only text: a fixed unit vector keeps the "unit length" promise
      // (pgvector cosine distance is NaN for zero vectors) while matching nothing real.
      const h = hash32('empty', 0, 5, 0);
      out[(h >>> 1) % this.dimension] = 1;
    }
    l2NormalizeInPlace(out);
    return Array.from(out);
  }
}
