import { ChunkPassage } from '@askdocs/plugin-ask-docs-common';
import type { IndexReader } from '../database/IndexReader';
import type { RetrievalScope } from '../database/visibilityPredicate';
import {
  boostFused,
  DEFAULT_RRF_K,
  DEFAULT_SCORE_FUSION_WEIGHTS,
  FusionMethod,
  FusionWeights,
  maxFusedScore,
  ScoreFusionWeights,
  reciprocalRankFusion,
  scoreFusion,
  titleCoverage,
} from './fusion';
import {
  CorrectedWordKeys,
  PassageWordKeys,
  passageMatchers,
  phraseShare,
  WordMatcher,
} from './proximity';
import {
  DEFAULT_RELEASE_NOTES_PENALTY,
  lowerReleaseNotes,
} from './releaseNotes';
import {
  correctedStatistics,
  FEW_VISIBLE_CHUNKS,
  keywordLists,
  keywordStatistics,
  KeywordHit,
  KeywordStatistics,
  normaliseTokens,
  QueryToken,
} from './keywordSearch';
import {
  DEFAULT_RELEVANCE_THRESHOLDS,
  isRelevant,
  RelevanceThresholds,
} from './relevance';
import { Correction, CONFIDENT_MIN_LENGTH, suggestCorrections } from './typo';
import {
  CHUNK_COVERAGE_SHARE,
  EvidenceFeatures,
  evidenceFeatures,
  EvidenceModel,
  evidenceProbability,
} from './evidence';
import { vectorSearch, VectorHit } from './vectorSearch';
import { fetchVisibleChunks, VisiblePassage } from './fetchChunks';

export type RetrievalMode = 'hybrid' | 'vector' | 'keyword';

/**
 * A corrected word counts half, like a prefix match: enough to rank what the asker probably
 * meant, not enough for a question whose word is simply absent ("Procreate" → "recreate") to
 * pass the coverage bar on the strength of the correction. A confident correction (the other
 * spelling, or one slip in a lowercase word of six or more letters that keeps its first letter:
 * typo.ts isConfidentCorrection) counts whole: the asker typed that word.
 */
export const CORRECTION_WEIGHT = 0.5;

/**
 * Weight of section-title evidence in the fused score (fusion.ts boostByTitle): a chunk whose
 * "Title › Section" names all the question's words gains 5 % of the largest possible fused
 * score, a rank or two near the top. Chosen on items-train/dev (docs/evaluation.md: 0.05 beat
 * 0, 0.1 and 0.2 on R@1 and MRR there); 0 turns it off.
 */
export const DEFAULT_TITLE_WEIGHT = 0.05;

/**
 * Weight of phrase evidence in the fused score (proximity.ts phraseShare): a chunk in which
 * every pair of neighbouring question words stands together, in order, gains 10 % of the
 * largest possible fused score. Chosen on items-train/dev (decision record 0009): 0.1 to 0.2
 * gave about the same R@1 and MRR, 0.3 and more lost R@1; the low end because the extractive
 * answers of the shared dev questions lose complete answers as it grows (another chunk of the
 * right page, the one with the phrase, comes first).
 */
export const DEFAULT_PHRASE_WEIGHT = 0.1;

/**
 * The question's tokens with each corrected word replaced by the suggestion. A confident
 * correction is matched with the word's dictionary keys (`keysOf`) at full weight; a guess as
 * that word only (no lemma or stem of its own), at CORRECTION_WEIGHT.
 */
export function correctedTokens(
  tokens: QueryToken[],
  corrections: ReadonlyArray<{ from: string; to: string; confident?: boolean }>,
  keysOf?: CorrectedWordKeys,
): QueryToken[] {
  const byFrom = new Map(corrections.map(c => [c.from, c]));
  return normaliseTokens(
    tokens.map(t => {
      const c = byFrom.get(t.token);
      if (c === undefined) return t;
      // A slip is searched as the word the asker meant, in all its forms; a guess only as the
      // word it guessed.
      const keys = c.confident && keysOf ? keysOf(c.to) : undefined;
      return {
        token: c.to,
        lemmas: keys?.lemmas ?? [],
        stems: keys?.stems ?? [],
        words: [c.to],
        weight: c.confident ? 1 : CORRECTION_WEIGHT,
        ...(t.situation ? { situation: true } : {}),
      };
    }),
  );
}

/** Candidates taken from each retriever for `k` chunks: `candidates`, default max(4k, 40). */
export function candidatePool(k: number, candidates?: number): number {
  return Math.max(k, Math.floor(candidates ?? Math.max(4 * k, 40)));
}

/**
 * What ranks and filters the chunks of one retrieve() call, its defaults filled in: retrieve()
 * resolves these settings here only, and each answer records the product's (AskService), so an
 * audit record says what ranked it even after one of these defaults changes. Not in it: the
 * HNSW search width (vectorSearch.ts) and a reranker's own settings (its RerankRecord).
 */
export type RankingSettings = {
  k: number;
  candidates: number;
  rrfK: number;
  /** RRF weights per retriever (with `scores` they pick the candidates, not their order). */
  weights: FusionWeights;
  thresholds: RelevanceThresholds;
  releaseNotesPenalty: number;
} & (
  | { fusion: 'rrf'; titleWeight: number; phraseWeight: number }
  | { fusion: 'scores'; scoreWeights: ScoreFusionWeights }
);

export function rankingSettings(
  options: Pick<
    RetrieveOptions,
    | 'k'
    | 'candidates'
    | 'fusion'
    | 'rrfK'
    | 'weights'
    | 'thresholds'
    | 'titleWeight'
    | 'phraseWeight'
    | 'releaseNotesPenalty'
  >,
): RankingSettings {
  const k = Math.max(0, Math.floor(options.k));
  const byScores = options.fusion === 'scores';
  return {
    k,
    candidates: candidatePool(k, options.candidates),
    rrfK: options.rrfK ?? DEFAULT_RRF_K,
    weights: { vector: 1, keyword: 1, ...options.weights },
    thresholds: options.thresholds ?? DEFAULT_RELEVANCE_THRESHOLDS,
    releaseNotesPenalty:
      options.releaseNotesPenalty ??
      DEFAULT_RELEASE_NOTES_PENALTY[byScores ? 'scores' : 'rrf'],
    ...(byScores
      ? { fusion: 'scores', scoreWeights: { ...DEFAULT_SCORE_FUSION_WEIGHTS } }
      : {
          fusion: 'rrf',
          titleWeight: options.titleWeight ?? DEFAULT_TITLE_WEIGHT,
          phraseWeight: options.phraseWeight ?? DEFAULT_PHRASE_WEIGHT,
        }),
  };
}

export interface RankedChunk extends ChunkPassage {
  /** Fused score; the order of `chunks`. */
  rrf: number;
  /** Cosine similarity to the query vector; null without a vector for this model. */
  similarity: number | null;
  /** BM25 keyword score; 0 when no query token matches, null without query tokens. */
  keywordScore: number | null;
  /** idf-weighted query coverage; null without query tokens. */
  coverage: number | null;
  /** 1-based, after the relevance filter. */
  rank: number;
}

export interface RetrieveOptions {
  /** The asker's reads of the index (bound to their visibility). */
  reader: IndexReader;
  scope?: RetrievalScope;
  /** The query embedded with `modelId`; omit when the embedder is unavailable. */
  queryVector?: number[];
  /**
   * Embeds the question again with the keyword side's spelling corrections applied, so the
   * vector side does not search for the typo. Called only when corrections were made.
   */
  reembed?: (
    corrections: Array<{ from: string; to: string }>,
  ) => Promise<number[]>;
  modelId: string;
  queryTokens: QueryToken[];
  /**
   * The keys of a passage's words in its language, to find the question's words in the
   * candidates' titles and text as keyword search finds them (proximity.ts queryWordMatcher).
   * Without it only the words themselves are compared.
   */
  passageWordKeys?: PassageWordKeys;
  /**
   * The keys of a confidently corrected word (proximity.ts analyzerCorrectedWordKeys); without
   * it a corrected word is matched as that word only.
   */
  correctedWordKeys?: CorrectedWordKeys;
  mode: RetrievalMode;
  /** Chunks to return at most. */
  k: number;
  /** The evidence filter; see relevance.ts. */
  thresholds?: RelevanceThresholds;
  /**
   * The fitted question-level evidence decision (evidence.ts). When set it decides whether the
   * question is answered; chunks then need a fair share of the best coverage (or the
   * thresholds). Unset: the per-chunk thresholds alone decide, as configured.
   */
  evidenceModel?: EvidenceModel;
  /** The question as asked (its form is one of the evidence features). */
  question?: string;
  /** Candidates taken from each retriever before fusion; default max(4k, 40). */
  candidates?: number;
  rrfK?: number;
  /** Per-retriever RRF weights (readFusionWeights); both 1 by default. */
  weights?: FusionWeights;
  /**
   * The order of the fused candidates (fusion.ts): `rrf` (default) with the title and phrase
   * boosts below, or `scores` (scoreFusion; its own weights, the boosts' weights unused).
   */
  fusion?: FusionMethod;
  /** Section-title evidence in the fused score; default DEFAULT_TITLE_WEIGHT. */
  titleWeight?: number;
  /** Phrase evidence in the fused score; default DEFAULT_PHRASE_WEIGHT. */
  phraseWeight?: number;
  /**
   * Share of the fused score a release-notes chunk loses (releaseNotes.ts), with either fusion;
   * default DEFAULT_RELEASE_NOTES_PENALTY for the fusion method (0.1 with scores, 0 with RRF).
   */
  releaseNotesPenalty?: number;
  efSearch?: number;
}

export interface RetrievalResult {
  chunks: RankedChunk[];
  /** Spelling corrections applied to keyword matching (from the asker's visible vocabulary). */
  corrections: Array<{ from: string; to: string }>;
  /** Distinct chunks either retriever returned, before the relevance filter. */
  candidatesConsidered: number;
  /** Candidates dropped by the relevance filter. */
  filteredOut: number;
  keywordStatistics?: KeywordStatistics;
  /** The evidence decision's inputs and, with a model, its probability (audit, evaluation). */
  evidence?: {
    features: EvidenceFeatures;
    probability?: number;
    answered: boolean;
  };
}

/**
 * Permission-scoped hybrid retrieval: kNN over the model's vectors and BM25 over keyword
 * postings, both restricted to the asker's visibility, fused with RRF, then filtered for
 * evidence. Every read (including the candidates' passages) goes through the visible-chunk base
 * queries. Missing evidence is filled in for each fused candidate (the similarity of a
 * keyword-only hit, the coverage of a vector-only one) so the filter judges every chunk on both.
 */
export async function retrieve(
  options: RetrieveOptions,
): Promise<RetrievalResult> {
  const { reader, modelId, mode } = options;
  const ranking = rankingSettings(options);
  const { k, candidates, thresholds } = ranking;
  const scope: RetrievalScope = { entityRefs: options.scope?.entityRefs };
  let queryVector =
    options.queryVector && options.queryVector.length > 0
      ? options.queryVector
      : undefined;
  const typedTokens = normaliseTokens(options.queryTokens ?? []);
  let tokens = typedTokens;
  const empty: RetrievalResult = {
    chunks: [],
    corrections: [],
    candidatesConsidered: 0,
    filteredOut: 0,
  };
  if (k === 0) return empty;

  const useVector = mode !== 'keyword' && !!queryVector;
  const useKeyword = mode !== 'vector' && tokens.length > 0;

  // Corrections only for tokens that match nothing visible, not even by prefix: a prefix match
  // ("kube" → "kubernetes") is better evidence than a one-letter neighbour ("cube").
  let corrections: Correction[] = [];
  let statistics: KeywordStatistics | undefined;
  let asTyped: KeywordStatistics | undefined;
  if (tokens.length > 0) {
    statistics = await keywordStatistics({
      reader,
      queryTokens: tokens,
    });
    asTyped = statistics;
    // Corrections serve both sides: keyword matching, and re-embedding the question.
    if (useKeyword || (useVector && options.reembed)) {
      // A word only of the asker's situation is not corrected: it is not what is asked, and
      // would spend the corrections' budget and count as a correction of the question.
      const situational = new Set(
        tokens.filter(t => t.situation).map(t => t.token),
      );
      const unmatched = statistics.tokens
        .filter(s => s.match === 'none' && !situational.has(s.token))
        .map(s => s.token);
      const selection = {
        ...scope,
        fewVisible: statistics.visibleChunks <= FEW_VISIBLE_CHUNKS,
      };
      const [forUnmatched, forRare] = await Promise.all([
        unmatched.length > 0
          ? suggestCorrections({
              reader,
              selection,
              queryTokens: tokens.filter(t => unmatched.includes(t.token)),
              // Statistics are over everything visible; a scoped question's check reads its
              // scope.
              unmatched: !scope.entityRefs?.length,
            })
          : [],
        // Rareness is over everything visible: a scoped question's rare words are left alone.
        scope.entityRefs?.length
          ? []
          : rareKeyCorrections(
              reader,
              selection,
              tokens.filter(t => !t.situation),
              statistics,
            ),
      ]);
      corrections = [...forUnmatched, ...forRare];
      if (corrections.length > 0) {
        tokens = correctedTokens(
          tokens,
          corrections,
          options.correctedWordKeys,
        );
        // The corrected statistics (derived from the corrections' df when their reads were
        // over the same chunks) and the corrected question's vector, at once.
        const reembed = options.reembed;
        const derived = scope.entityRefs?.length
          ? undefined
          : correctedStatistics(statistics, tokens, corrections);
        [statistics, queryVector] = await Promise.all([
          derived ?? keywordStatistics({ reader, queryTokens: tokens }),
          useVector && reembed
            ? reembed(corrections.map(({ from, to }) => ({ from, to })))
            : Promise.resolve(queryVector),
        ]);
      }
    }
  }

  // The two retrievers are independent: the vector search starts at once, beside the reading
  // of the posting lists (two connections), so a question costs the slower of the two rather
  // than their sum. One read of the lists serves the keyword ranking and the coverage of the
  // vector side's candidates.
  const vectorRun = useVector
    ? vectorSearch({
        reader,
        selection: scope,
        modelId,
        queryVector: queryVector!,
        k: candidates,
        efSearch: options.efSearch,
        // Few visible chunks: exact search is faster than HNSW there, and loses nothing.
        visibleChunks: statistics?.visibleChunks,
      })
    : Promise.resolve<VectorHit[]>([]);
  const keywordRun = (async () => {
    const lists =
      tokens.length > 0
        ? await keywordLists({
            reader,
            selection: scope,
            queryTokens: tokens,
            statistics,
          })
        : undefined;
    const hits = useKeyword ? await lists!.best(candidates) : [];
    return { lists, hits };
  })();
  const [vectorHits, { lists: postings, hits: keywordHits }] =
    await Promise.all([vectorRun, keywordRun]);

  const lists: Array<{ ids: string[]; weight: number }> = [];
  if (useVector)
    lists.push({
      ids: vectorHits.map(h => h.chunkId),
      weight: ranking.weights.vector,
    });
  if (useKeyword)
    lists.push({
      ids: keywordHits.map(h => h.chunkId),
      weight: ranking.weights.keyword,
    });
  const fused = reciprocalRankFusion(
    lists.map(l => l.ids),
    { k: ranking.rrfK, weights: lists.map(l => l.weight) },
  );
  if (fused.length === 0) {
    postings?.release();
    return {
      ...empty,
      corrections: corrections.map(({ from, to }) => ({ from, to })),
      keywordStatistics: statistics,
    };
  }

  // Fill in the evidence each retriever did not provide, for the fused candidates only.
  const similarity = new Map(vectorHits.map(h => [h.chunkId, h.similarity]));
  const keyword = new Map(keywordHits.map(h => [h.chunkId, h]));
  const ids = fused.map(f => f.id);
  const noSimilarity = ids.filter(id => !similarity.has(id));
  const noCoverage = ids.filter(id => !keyword.has(id));
  // Independent reads, at once: the missing similarities, the missing coverages, and the
  // candidates' passages (read through visibility on chunk and document), which give the
  // section and phrase evidence here and the returned chunks below.
  const [moreSimilar, moreCovered, passages] = await Promise.all([
    queryVector && noSimilarity.length > 0
      ? vectorSearch({
          reader,
          selection: { ...scope, chunkIds: noSimilarity },
          modelId,
          queryVector,
          k: noSimilarity.length,
          strategy: 'exact',
        })
      : Promise.resolve<VectorHit[]>([]),
    postings && noCoverage.length > 0
      ? postings.score(noCoverage)
      : Promise.resolve<KeywordHit[]>([]),
    fetchVisibleChunks(reader, ids, scope),
  ]);
  // The decoded lists are done with: their memory serves the next question.
  postings?.release();
  for (const h of moreSimilar) similarity.set(h.chunkId, h.similarity);
  for (const h of moreCovered) keyword.set(h.chunkId, h);

  // Score fusion leaves out the score of a retriever the mode does not use.
  const unused = {
    ...(useVector ? {} : { vector: 0 }),
    ...(useKeyword ? {} : { keyword: 0 }),
  };
  const maxFused =
    ranking.fusion === 'scores'
      ? maxFusedScore({ ...ranking.scoreWeights, ...unused })
      : lists.reduce((sum, l) => sum + l.weight, 0) / (ranking.rrfK + 1);
  // What is asked, without the words only of the asker's situation (situation.ts): the
  // evidence is about it, and a passage is not the worse answer for lacking the situation.
  const asked = tokens.filter(t => !t.situation);
  // One matcher of the asked words (as corrected) for every passage evidence.
  const matchFor = passageMatchers(
    asked,
    options.passageWordKeys,
    new Set(
      statistics?.tokens.filter(t => t.match === 'prefix').map(t => t.token),
    ),
  );
  // Statistics of the asked words only, each read with the tokens they were read for.
  const ofAsked = (
    s: KeywordStatistics | undefined,
    read: readonly QueryToken[],
  ) => {
    const situational = new Set(
      read.filter(t => t.situation).map(t => t.token),
    );
    return s && situational.size > 0
      ? { ...s, tokens: s.tokens.filter(t => !situational.has(t.token)) }
      : s;
  };
  // Computed for the evidence features too, so also when the boosts' weights are 0.
  const candidate =
    asked.length > 0
      ? candidateEvidence(passages, asked, statistics, matchFor)
      : undefined;
  const section = candidate?.section ?? new Map<string, number>();
  const phrase = candidate?.phrase ?? new Map<string, number>();
  const unboosted = fused.map(f => ({
    id: f.id,
    rrf: f.score,
    similarity: queryVector ? similarity.get(f.id) ?? null : null,
    keywordScore: tokens.length > 0 ? keyword.get(f.id)?.score ?? 0 : null,
    coverage: tokens.length > 0 ? keyword.get(f.id)?.coverage ?? 0 : null,
  }));
  const fusedScores =
    ranking.fusion === 'scores'
      ? scoreFusion(
          unboosted,
          { title: section, phrase },
          { ...ranking.scoreWeights, ...unused },
        )
      : boostFused(
          unboosted,
          [
            { values: section, weight: ranking.titleWeight },
            { values: phrase, weight: ranking.phraseWeight },
          ],
          maxFused,
        );
  const byId = new Map(passages.map(c => [c.chunkId, c]));
  // Before the evidence features, so they describe the order the asker gets.
  const scored = lowerReleaseNotes(
    fusedScores,
    id => byId.get(id)?.sectionPath,
    options.question,
    ranking.releaseNotesPenalty,
  );
  const features = evidenceFeatures({
    fused: scored,
    vectorIds: vectorHits.map(h => h.chunkId),
    keywordHits,
    // As typed: a word the docs lack is missing, unless its correction was a sure slip.
    statistics: confidentlyCorrected(
      ofAsked(asTyped, typedTokens),
      statistics,
      corrections,
    ),
    searched: ofAsked(statistics, tokens),
    matchedTokens: new Map(
      [...keyword.values()].map(h => [h.chunkId, h.matchedTokens]),
    ),
    // Only guesses: a confident correction is the word the asker meant (typo.ts), so a question
    // typed with one slip gets the decision of the question as meant.
    corrections: corrections.filter(c => !c.confident).length,
    tokens: asked.length,
    maxFused,
    question: options.question,
    titleCoverage: candidate?.section,
    queryTokens: asked,
    matchFor,
    passages,
  });
  const model = options.evidenceModel;
  const probability = model ? evidenceProbability(model, features) : undefined;
  const answered = probability === undefined || probability >= model!.cutoff;
  const enough = CHUNK_COVERAGE_SHARE * features.coverageMax;
  const relevant = !answered
    ? []
    : scored.filter(
        s =>
          isRelevant(s, thresholds) ||
          // With no question word covered anywhere, a share of nothing lets nothing in.
          (!!model && enough > 0 && (s.coverage ?? 0) >= enough),
      );
  const selected = relevant.slice(0, k);
  const evidence = {
    features,
    probability,
    answered: answered && selected.length > 0,
  };
  if (selected.length === 0) {
    return {
      chunks: [],
      corrections: corrections.map(({ from, to }) => ({ from, to })),
      candidatesConsidered: fused.length,
      filteredOut: scored.length,
      keywordStatistics: statistics,
      evidence,
    };
  }

  const chunks: RankedChunk[] = [];
  for (const s of selected) {
    const passage = byId.get(s.id);
    if (!passage) continue; // deleted (or re-permissioned) before the passages were read
    // The language was for reading its words; a returned chunk is a passage as the API has it.
    const { lang: _lang, ...chunk } = passage;
    chunks.push({
      ...chunk,
      rrf: s.rrf,
      similarity: s.similarity,
      keywordScore: s.keywordScore,
      coverage: s.coverage,
      rank: chunks.length + 1,
    });
  }
  return {
    chunks,
    corrections: corrections.map(({ from, to }) => ({ from, to })),
    candidatesConsidered: fused.length,
    filteredOut: scored.length - relevant.length,
    keywordStatistics: statistics,
    evidence,
  };
}

/** What a candidate's own words say about the question, beyond keyword coverage. */
interface CandidateEvidence {
  /** Share of the question its "Title › Section" path names (fusion.ts titleCoverage). */
  section: Map<string, number>;
  /** Share of the question's word pairs its text has as phrases (proximity.ts phraseShare). */
  phrase: Map<string, number>;
}

/** Section-path and phrase evidence of each candidate, from its visible passage. */
function candidateEvidence(
  passages: VisiblePassage[],
  tokens: QueryToken[],
  statistics: KeywordStatistics | undefined,
  matchFor: (lang?: string) => WordMatcher,
): CandidateEvidence {
  // As in keyword coverage, a word the corpus lacks still counts against every title.
  const idf = new Map(statistics?.tokens.map(t => [t.token, t.idf]) ?? []);
  const idfOf = (token: string) => idf.get(token) ?? 0;
  const section = new Map<string, number>();
  const phrase = new Map<string, number>();
  for (const p of passages) {
    const path = p.sectionPath ?? '';
    const match = matchFor(p.lang);
    section.set(p.chunkId, titleCoverage(tokens, idfOf, path, match));
    phrase.set(p.chunkId, phraseShare(tokens, idfOf, p.text ?? '', match));
  }
  return { section, phrase };
}

/**
 * The statistics as typed, with each confidently corrected word's replaced by its correction's:
 * what the evidence counts as missing (missingShare).
 */
function confidentlyCorrected(
  asTyped: KeywordStatistics | undefined,
  searched: KeywordStatistics | undefined,
  corrections: readonly Correction[],
): KeywordStatistics | undefined {
  const sure = new Map(
    corrections.filter(c => c.confident).map(c => [c.from, c.to]),
  );
  if (!asTyped || !searched || sure.size === 0) return asTyped;
  const bySearched = new Map(searched.tokens.map(t => [t.token, t]));
  return {
    ...asTyped,
    tokens: asTyped.tokens.map(t => {
      const to = sure.get(t.token);
      return (to !== undefined && bySearched.get(to)) || t;
    }),
  };
}

/** A word the docs have only through another word's key in at most this many chunks is rare. */
const RARE_KEY_MAX_DF = 5;
/** ...and is taken for a slip of a docs word at least this many times as frequent. */
const RARE_KEY_SLIP_RATIO = 10;
/** Words of a question tried this way (each costs a vocabulary lookup). */
const RARE_KEY_MAX_WORDS = 3;

/**
 * Corrections of words no dictionary knows and the docs lack, which keyword search still found
 * through a rare key of another word ("longre": the stem "longr" of one chunk's word; "sessino":
 * "sess"). Such a word is as likely a slip as a word the docs lack entirely, but matched, it was
 * never corrected, and the one chunk it names decided the question. A confident correction (one
 * slip, first letter kept) to a word at least RARE_KEY_SLIP_RATIO times as frequent replaces it.
 */
async function rareKeyCorrections(
  reader: IndexReader,
  selection: RetrievalScope & { fewVisible: boolean },
  tokens: QueryToken[],
  statistics: KeywordStatistics,
): Promise<Correction[]> {
  const dfOf = new Map(statistics.tokens.map(s => [s.token, s]));
  const rare = tokens.filter(t => {
    const s = dfOf.get(t.token);
    return (
      t.dictionaryWord === false &&
      s?.match === 'exact' &&
      s.df <= RARE_KEY_MAX_DF
    );
  });
  if (rare.length === 0) return [];
  // Without its stems: a word the docs have (as typed, or its own lemma such as "munchen" for
  // "München") is known there and no slip; only another word's stem made it a match.
  const found = await suggestCorrections({
    reader,
    selection,
    queryTokens: rare.map(t => ({ ...t, stems: [] })),
    // Only a confident correction is taken: one slip in a word of six or more letters.
    minWordLength: CONFIDENT_MIN_LENGTH,
    shortWordMaxLength: Infinity,
    maxWords: RARE_KEY_MAX_WORDS,
  });
  return found.filter(
    c =>
      c.confident &&
      c.df >= RARE_KEY_SLIP_RATIO * (dfOf.get(c.from)?.df ?? Infinity),
  );
}
