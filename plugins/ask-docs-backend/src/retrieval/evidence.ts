/*
 * The question-level evidence decision (decision record 0009): does the visible corpus answer
 * this question at all? Features describe how well the fused candidates match the question
 * (coverage, similarity, agreement of the two retrievers, score margins, words the corpus does
 * not have); a logistic model fitted on the training questions (test/eval/fitEvidenceModel.ts)
 * turns them into a probability, refused below its cutoff. Nothing looks at how the question is
 * worded ("How do I …?" or a bare request): the same question must get the same decision in any
 * form (decision record 0009, eighth round). Only which sentence of a message asks is read from
 * the sentences' form (language/situation.ts), so that a sentence of the asker's situation beside
 * it is not held against the passages (seventeenth round).
 */
import { foldDiacritics } from '../language/tokenize';
import type { TokenStatistics } from './keywordSearch';
import { boundedDamerauLevenshtein } from './typo';
import {
  passageMatchers,
  sentenceShare,
  type MatchQueryToken,
  type WordMatcher,
} from './proximity';

/** Names and order of the model's inputs; the fitted constants list them to catch drift. */
export const EVIDENCE_FEATURES = [
  'coverageTop',
  'coverageMax5',
  'coverageMax',
  'similarityTop',
  'similarityMax',
  'keywordMargin',
  'keywordTopInVector',
  'overlap10',
  'fusedTop',
  'fusedMargin',
  'missingShare',
  'corrected',
  'logTokens',
  'uncoveredMaxIdf',
  'uncoveredShare',
  'czech',
  'titleTop',
  'titleMax5',
  'identifierMissing',
  'sentenceMax5',
  'nameMissing',
] as const;
export type EvidenceFeatureName = (typeof EVIDENCE_FEATURES)[number];
export type EvidenceFeatures = Record<EvidenceFeatureName, number>;

/**
 * A fitted model's inputs from one space-separated list (the fitted file records names and order
 * with the weights, compactly); a name EVIDENCE_FEATURES does not have throws at load.
 */
export function featureNames(names: string): EvidenceFeatureName[] {
  const list = names.trim().split(/\s+/);
  const unknown = list.filter(
    n => !(EVIDENCE_FEATURES as readonly string[]).includes(n),
  );
  if (unknown.length)
    throw new Error(`unknown evidence feature(s): ${unknown.join(', ')}`);
  return list as EvidenceFeatureName[];
}

/** A fitted logistic model: p = σ(bias + Σ weight·(x − mean)/scale); refused below cutoff. */
export interface EvidenceModel {
  features: readonly EvidenceFeatureName[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  cutoff: number;
  /** Where the numbers come from (split, items, date); documentation only. */
  fittedOn: string;
  /**
   * The embedding model id whose features it was fitted on: for that model it is the default
   * evidence decision (settings.ts); other models of the kind get it only when chosen.
   */
  modelId?: string;
}

export interface EvidenceInput {
  /** Fused candidates in order, with the evidence retrieve() filled in for each. */
  fused: Array<{
    id: string;
    rrf: number;
    similarity: number | null;
    coverage: number | null;
  }>;
  vectorIds: string[];
  keywordHits: Array<{ chunkId: string; score: number }>;
  /*
   * The statistics, tokens and token count are of what is asked: a word only of the asker's
   * situation (language/situation.ts) is neither missing nor uncovered.
   */
  /** Keyword statistics before spelling corrections (which words the corpus lacks). */
  statistics?: { tokens: TokenStatistics[] };
  /** Keyword statistics as searched (after corrections), with the tokens each candidate matched. */
  searched?: { tokens: TokenStatistics[] };
  matchedTokens?: Map<string, string[]>;
  /** Spelling corrections that are guesses (not confident ones): the `corrected` feature. */
  corrections: number;
  tokens: number;
  /** Largest possible fused score (sum of list weights / (k + 1)), to scale `rrf`. */
  maxFused: number;
  /** The question (with restored diacritics): its language, identifiers and names are features. */
  question?: string;
  /** Share of the question a candidate's section path names (fusion.ts titleCoverage). */
  titleCoverage?: ReadonlyMap<string, number>;
  /** The query tokens as searched (their keys), to find the question's words in passages. */
  queryTokens?: readonly MatchQueryToken[];
  /** Their matchers by passage language, as retrieve() built them (proximity.ts). */
  matchFor?: (lang?: string) => WordMatcher;
  /**
   * The fused candidates' visible passages, by chunk id (any order): their sentences, and their
   * section paths and texts where the question's identifiers are sought.
   */
  passages?: ReadonlyArray<{
    chunkId: string;
    sectionPath?: string;
    text?: string;
    /** The language its chunk was analysed in: its words are read in it. */
    lang?: string;
  }>;
}

const IDENTIFIER = new RegExp(
  `(?<![\\w-])(${[
    '--[a-z][a-z0-9-]*[a-z0-9]', // --parallel
    '[a-z][a-z0-9]*(?:_[a-z0-9]+)+', // pg_stat_io
    '[a-z][a-z0-9_]*\\(\\)', // uuidv7()
  ].join('|')})`,
  'gi',
);

/**
 * Code identifiers a question names, lowercase: snake_case words (`pg_stat_io`), calls
 * (`uuidv7()`, without the parentheses) and long options (`--parallel`). Keyword search splits
 * them into words the corpus often has (stat, io); the identifier as a whole is the evidence.
 * The question may come with restored Czech diacritics; they are folded away first.
 */
export function questionIdentifiers(question: string): string[] {
  // Identifiers are ASCII: fold what diacritics restoration put in ("pg_stát" → "pg_stat").
  const found = foldDiacritics(question).matchAll(IDENTIFIER);
  return [
    ...new Set([...found].map(m => m[1].toLowerCase().replace(/\(\)$/, ''))),
  ];
}

/**
 * Finds words in passages as whole words: the passages are lowercased and folded once (on first
 * use), a word is sought by indexOf. `slack` lets the passage's word differ in its last letters:
 * it may drop up to `slack` of the word's final letters and have a length within `slack` of it
 * (Czech endings: "Slacku" finds "Slack", "Brně" finds "Brno"); 0 asks for the word itself.
 */
function wordFinder(texts: readonly string[]) {
  let folded: string[] | undefined;
  const isWordChar = (c: string | undefined) => !!c && /[\p{L}\p{N}_]/u.test(c);
  return (word: string, slack = 0): boolean => {
    folded ??= texts.map(t => foldDiacritics(t.toLowerCase()));
    const base = word.slice(0, Math.max(3, word.length - slack));
    return folded.some(t => {
      for (let i = t.indexOf(base); i >= 0; i = t.indexOf(base, i + 1)) {
        if (isWordChar(t[i - 1])) continue;
        let end = i + base.length;
        while (end - i <= word.length + slack && isWordChar(t[end])) end++;
        if (!isWordChar(t[end]) && Math.abs(end - i - word.length) <= slack)
          return true;
      }
      return false;
    });
  };
}

/** Shortest identifier part a misspelling may be in: "asci" is ASCII, "io" is not "in". */
const MISSPELT_PART_LENGTH = 4;

/**
 * Whether `other` is `id` misspelt: both have parts joined by separators, the same parts and
 * separators but one, and that one is a word of MISSPELT_PART_LENGTH or more letters a single
 * edit away ("sql_asci" / "sql_ascii"). Anything else is another identifier: another structure
 * (pg_stat_io is not pg_statio_*), a number (uuidv7 is not uuidv4, release_2025 not
 * release_2024), a short part (io/in), or one word alone (--job / --jobs).
 */
function misspeltIdentifier(id: string, other: string): boolean {
  const a = id.split(/([_-]+)/);
  const b = other.split(/([_-]+)/);
  // Two parts and a separator at least ("--jobs" splits into "", "--", "jobs": one part).
  const joined = a.filter(Boolean).length >= 3;
  if (!joined || a.length !== b.length) return false;
  const differing = a.flatMap((part, i) => (part === b[i] ? [] : [i]));
  if (differing.length !== 1) return false;
  const [x, y] = [a[differing[0]], b[differing[0]]];
  return (
    differing[0] % 2 === 0 &&
    x.length >= MISSPELT_PART_LENGTH &&
    /^[a-z]+$/.test(x) &&
    /^[a-z]+$/.test(y) &&
    boundedDamerauLevenshtein(x, y, 1) <= 1
  );
}

/**
 * Share of the question's identifiers (questionIdentifiers) that no candidate text contains as a
 * whole word, ignoring case; 0 without identifiers. A question about `transaction_timeout` that
 * no passage mentions asks about something the documentation does not have. A passage's
 * identifier that is the question's misspelt (misspeltIdentifier: "SQL_ASCI" for SQL_ASCII)
 * counts as found: spelling correction splits identifiers into words, so never sees them whole.
 */
export function identifierMissing(
  question: string,
  texts: readonly string[],
  finds = wordFinder(texts),
): number {
  const ids = questionIdentifiers(question);
  if (ids.length === 0) return 0;
  let inTexts: string[] | undefined;
  const nearlyFound = (id: string) => {
    inTexts ??= [...new Set(texts.flatMap(t => questionIdentifiers(t)))];
    return inTexts.some(other => misspeltIdentifier(id, other));
  };
  return ids.filter(id => !finds(id) && !nearlyFound(id)).length / ids.length;
}

const CZECH_LETTER = /[áčďéěíňóřšťúůýž]/i;

// A capitalised word inside a sentence (not after sentence-ending punctuation, not a part of a
// dotted name such as "Sli.do"), three letters or more.
const NAME =
  /(?<=[^.!?\s]\s+|[("'„/])\p{Lu}[\p{L}\p{N}]{2,}(?![\p{L}\p{N}]*\.[\p{L}\p{N}])/gu;
// All-capital words up to four letters: acronyms the docs may spell out (CTE, SQL).
const ACRONYM = /^[\p{Lu}\p{N}]{2,4}$/u;

/** The names a question capitalises mid-sentence (products, services, places), folded. */
export function questionNames(question: string): string[] {
  const words = [...question.normalize('NFC').matchAll(NAME)].map(m => m[0]);
  return [
    ...new Set(
      words
        .filter(w => !ACRONYM.test(w))
        .map(w => foldDiacritics(w.toLowerCase())),
    ),
  ];
}

/**
 * 1 when the question capitalises a name (questionNames) that no candidate text contains as a
 * whole word, else 0: Canva, Vercel or Kafka asked about where no passage names them. Keyword
 * search finds such words' stems elsewhere ("canva" in "canvas"); the name itself is the
 * evidence. In a Czech question a name may come with another ending (up to two letters).
 */
export function nameMissing(
  question: string,
  texts: readonly string[],
  finds = wordFinder(texts),
): number {
  const slack = CZECH_LETTER.test(question) ? 2 : 0;
  return questionNames(question).some(n => !finds(n, slack)) ? 1 : 0;
}

const top = (xs: Array<number | null | undefined>, n = xs.length) =>
  xs
    .slice(0, n)
    .reduce<number>((m, x) => (typeof x === 'number' && x > m ? x : m), 0);

/**
 * The best sentence of the top 5 fused candidates (proximity.ts sentenceShare): do the
 * question's words stand together in one statement, not merely somewhere in the chunk? Words are
 * compared by the query tokens' keys and weighted by their idf as searched.
 */
function sentenceMax5(input: EvidenceInput): number {
  const idfOf = new Map(
    (input.searched?.tokens ?? []).map(t => [t.token, t.idf]),
  );
  const tokens = input.queryTokens ?? [];
  const passages = new Map((input.passages ?? []).map(p => [p.chunkId, p]));
  const matchFor = input.matchFor ?? passageMatchers(tokens, undefined);
  return top(
    input.fused.slice(0, 5).map(f => {
      const passage = passages.get(f.id);
      return passage?.text
        ? sentenceShare(
            tokens,
            t => idfOf.get(t) ?? 0,
            passage.text,
            matchFor(passage.lang),
          )
        : 0;
    }),
  );
}

export function evidenceFeatures(input: EvidenceInput): EvidenceFeatures {
  const { fused, vectorIds, keywordHits } = input;
  const kw = keywordHits.map(h => h.score);
  const keywordTop = keywordHits[0]?.chunkId;
  const vectorRank =
    keywordTop === undefined ? -1 : vectorIds.indexOf(keywordTop);
  const v10 = new Set(vectorIds.slice(0, 10));
  const overlap = keywordHits
    .slice(0, 10)
    .filter(h => v10.has(h.chunkId)).length;
  const stats = input.statistics?.tokens ?? [];
  const idfSum = stats.reduce((s, t) => s + t.idf, 0);
  const missing = stats
    .filter(t => t.match === 'none')
    .reduce((s, t) => s + t.idf, 0);
  const q = input.question ?? '';
  const fusedTop = fused[0]?.rrf ?? 0;
  // The most specific question words the best-covering top-5 chunk lacks: a near-miss question
  // usually shares the product's vocabulary but not its one distinctive word.
  const searched = input.searched?.tokens ?? [];
  const maxIdf = searched.reduce((m, t) => Math.max(m, t.idf), 0);
  const best = fused
    .slice(0, 5)
    .reduce<(typeof fused)[number] | undefined>(
      (b, f) => ((f.coverage ?? 0) > (b?.coverage ?? -1) ? f : b),
      undefined,
    );
  const matched = new Set(best ? input.matchedTokens?.get(best.id) ?? [] : []);
  const lacking = searched.filter(t => !matched.has(t.token));
  const title = (id: string | undefined) =>
    id === undefined ? 0 : input.titleCoverage?.get(id) ?? 0;
  const uncoveredMaxIdf =
    maxIdf > 0 ? lacking.reduce((m, t) => Math.max(m, t.idf), 0) / maxIdf : 0;
  // Identifiers and names are sought in every candidate's section path and text, read once.
  const texts = (input.passages ?? []).map(
    p => `${p.sectionPath ?? ''}\n${p.text ?? ''}`,
  );
  const finds = wordFinder(texts);
  return {
    coverageTop: fused[0]?.coverage ?? 0,
    coverageMax5: top(
      fused.map(f => f.coverage),
      5,
    ),
    coverageMax: top(fused.map(f => f.coverage)),
    similarityTop: fused[0]?.similarity ?? 0,
    similarityMax: top(fused.map(f => f.similarity)),
    keywordMargin:
      kw.length === 0
        ? 0
        : kw.length === 1
        ? 1
        : (kw[0] - kw[1]) / (kw[0] || 1),
    keywordTopInVector: vectorRank < 0 ? 0 : 1 / (vectorRank + 1),
    overlap10: overlap / 10,
    fusedTop: input.maxFused > 0 ? fusedTop / input.maxFused : 0,
    fusedMargin:
      fused.length < 2 || fusedTop === 0
        ? 1
        : (fusedTop - fused[1].rrf) / fusedTop,
    missingShare: idfSum > 0 ? missing / idfSum : 0,
    corrected: input.corrections > 0 ? 1 : 0,
    logTokens: Math.log(1 + input.tokens),
    uncoveredMaxIdf,
    uncoveredShare: searched.length ? lacking.length / searched.length : 0,
    czech: CZECH_LETTER.test(q) ? 1 : 0,
    // A page or section named after the question is strong evidence that it is answered.
    titleTop: title(fused[0]?.id),
    titleMax5: top(fused.slice(0, 5).map(f => title(f.id))),
    identifierMissing: identifierMissing(q, texts, finds),
    sentenceMax5: sentenceMax5(input),
    nameMissing: nameMissing(q, texts, finds),
  };
}

export function evidenceProbability(
  model: EvidenceModel,
  f: EvidenceFeatures,
): number {
  let z = model.bias;
  model.features.forEach((name, i) => {
    z += (model.weights[i] * (f[name] - model.mean[i])) / (model.scale[i] || 1);
  });
  return 1 / (1 + Math.exp(-z));
}

/**
 * A chunk of an answerable question is passed on when it covers at least this share of the best
 * candidate's coverage: the model decides whether to answer, this keeps unrelated tail chunks out.
 */
export const CHUNK_COVERAGE_SHARE = 0.5;
