import { foldDiacritics } from '../language';
import type {
  IndexReader,
  PostingListRow,
  TokenKey,
} from '../database/IndexReader';
import type { ChunkSelection } from '../database/visibilityPredicate';
import {
  decodePostingArrays,
  PostingArena,
  PostingArrays,
} from '../database/postingList';
import {
  bestChunks,
  groupBounds,
  listHas,
  ScoredChunk,
  scoreChunks,
  unionLists,
} from './listScoring';

/** Up to this many visible chunks, reads seek by visible entity (`fewVisible`). */
export const FEW_VISIBLE_CHUNKS = 2000;

/** One analysed query word (stopwords already removed), from the language module. */
export interface QueryToken {
  token: string;
  /** Keys of kind 'l'. */
  lemmas: string[];
  /** Keys of kind 's'. */
  stems: string[];
  /** Keys of kind 'w' (surface words); used for spelling corrections. */
  words?: string[];
  /**
   * A language's dictionary knows the word (as typed or with restored diacritics): a word, not
   * a misspelling, so typo correction leaves it (typo.ts); absent from the docs, it is missing.
   */
  dictionaryWord?: boolean;
  /**
   * Typed with a capital letter ("Gradle", "PostgREST"): a name, so a correction of it is a
   * guess, never a sure slip (typo.ts isConfidentCorrection).
   */
  capitalised?: boolean;
  /**
   * The British spelling of an English word ("parallelise"): only its American spelling is a
   * sure correction of it (typo.ts isConfidentCorrection).
   */
  britishSpelling?: boolean;
  /**
   * How much a match of this token counts, in score and coverage (default 1). A spelling
   * correction is a guess at what was meant, so it counts less than a word as typed.
   */
  weight?: number;
  /**
   * A word only of the asker's situation ("We are migrating our services."; situation.ts): it
   * ranks at SITUATION_WEIGHT, and no coverage or evidence holds a passage's lack of it against
   * the passage.
   */
  situation?: boolean;
}

/**
 * How much a situation word counts in the keyword score, relative to an asked one: half, as a
 * prefix match or a guessed correction counts (decision record 0009, seventeenth round).
 */
export const SITUATION_WEIGHT = 0.5;

export interface TokenStatistics {
  token: string;
  /** How it matches the visible corpus: its own keys, key prefixes (fallback), or not at all. */
  match: 'exact' | 'prefix' | 'none';
  /** Visible chunks containing the token (via the keys of `match`). */
  df: number;
  idf: number;
  /**
   * Score weight: the token's weight (1 as typed) for exact, times `prefixWeight` for prefix,
   * 0 for none.
   */
  weight: number;
}

/** Corpus statistics as the asker sees it: counted over visible chunks only. */
export interface KeywordStatistics {
  /** N: visible chunks. */
  visibleChunks: number;
  averageLength: number;
  tokens: TokenStatistics[];
}

export interface KeywordHit {
  chunkId: string;
  /** BM25 over the query tokens, prefix matches at reduced weight. */
  score: number;
  /**
   * idf-weighted fraction of the asked query tokens this chunk matches, in [0, 1] (a word only of
   * the asker's situation takes no part).
   */
  coverage: number;
  matchedTokens: string[];
  /** 1-based. */
  rank: number;
}

export interface KeywordOptions {
  /** The asker's reads of the index (bound to their visibility). */
  reader: IndexReader;
  queryTokens: QueryToken[];
  /** Prefix keys shorter than this are not expanded (e.g. "ab%" would match half the corpus). */
  minPrefixLength?: number;
  /** Weight of a prefix match relative to an exact one. */
  prefixWeight?: number;
}

const DEFAULTS = { minPrefixLength: 4, prefixWeight: 0.5, k1: 1.2, b: 0.75 };

type Kind = TokenKey['kind'];
type Key = TokenKey;

const tokenWeight = (t: QueryToken) =>
  typeof t.weight === 'number' && t.weight >= 0 && t.weight <= 1 ? t.weight : 1;
/** What a match of the token adds to the score: its weight, less for a situation word. */
const scoreWeight = (t: QueryToken) =>
  tokenWeight(t) * (t.situation ? SITUATION_WEIGHT : 1);

/** Merges duplicate tokens so a repeated word does not count twice. */
export function normaliseTokens(tokens: QueryToken[]): QueryToken[] {
  const byToken = new Map<string, QueryToken>();
  for (const t of tokens) {
    if (!t || typeof t.token !== 'string' || t.token === '') continue;
    const prev = byToken.get(t.token);
    const merge = (a: string[] = [], b: string[] = []) =>
      Array.from(new Set([...a, ...b].filter(Boolean)));
    byToken.set(t.token, {
      token: t.token,
      lemmas: merge(prev?.lemmas, t.lemmas),
      stems: merge(prev?.stems, t.stems),
      words: merge(prev?.words, t.words),
      weight: prev ? Math.max(tokenWeight(prev), tokenWeight(t)) : t.weight,
      // A situation word only when both are: a word the asking sentences have is asked.
      ...((prev ? prev.situation && t.situation : t.situation)
        ? { situation: true }
        : {}),
      // True when either says so; unknown only when neither knows (what reads it fails
      // closed).
      ...flag('dictionaryWord', prev?.dictionaryWord, t.dictionaryWord),
      ...flag('capitalised', prev?.capitalised, t.capitalised),
      ...flag('britishSpelling', prev?.britishSpelling, t.britishSpelling),
    });
  }
  return Array.from(byToken.values());
}

/** A merged boolean field: true if either is, false if both are (or one and the other unknown). */
function flag<K extends 'dictionaryWord' | 'capitalised' | 'britishSpelling'>(
  key: K,
  a: boolean | undefined,
  b: boolean | undefined,
): Partial<Record<K, boolean>> {
  if (a === undefined && b === undefined) return {};
  return { [key]: Boolean(a || b) } as Partial<Record<K, boolean>>;
}

export function exactKeys(tokens: QueryToken[]): Key[] {
  const keys: Key[] = [];
  tokens.forEach((t, tok) => {
    const seen = new Set<string>();
    const add = (kind: Kind, term: string) => {
      if (!seen.has(`${kind}:${term}`)) {
        seen.add(`${kind}:${term}`);
        keys.push({ tok, kind, term });
      }
    };
    t.lemmas.forEach(term => add('l', term));
    t.stems.forEach(term => add('s', term));
    (t.words ?? []).forEach(term => add('w', term));
  });
  return keys;
}

/**
 * The exact keys whose lists are read for scoring. A chunk with a surface word has that word's
 * lemma and stem keys too (the same analyser made both), with at least its tf: the word's own
 * list adds nothing to a token that has lemma or stem keys, and costs a third of the reading.
 */
function readKeys(tokens: QueryToken[], exact: boolean[]): Key[] {
  const keys = exactKeys(tokens).filter(k => exact[k.tok]);
  const derived = new Set(keys.filter(k => k.kind !== 'w').map(k => k.tok));
  return keys.filter(k => k.kind !== 'w' || !derived.has(k.tok));
}

/**
 * Lists grouped by entity, each token's key lists merged into one (largest tf): `groups[g][tok]`
 * is the token's list in entity group g, undefined where it has none.
 */
function groupLists(
  rows: PostingListRow[],
  tokens: number,
  arena: PostingArena,
) {
  const byEntity = new Map<number, PostingArrays[][]>();
  for (const row of rows) {
    const lists =
      byEntity.get(row.entityNo) ??
      Array.from({ length: tokens }, (): PostingArrays[] => []);
    byEntity.set(row.entityNo, lists);
    lists[row.tok].push(decodePostingArrays(row.postings, row.df, arena));
  }
  return [...byEntity.values()].map(lists =>
    lists.map(keyLists =>
      keyLists.length ? unionLists(keyLists, arena) : undefined,
    ),
  );
}

async function prefixDf(reader: IndexReader, keys: Key[]) {
  const df = new Map<number, number>();
  const tokens = Math.max(-1, ...keys.map(k => k.tok)) + 1;
  const rows = await reader.postingLists([], keys);
  const arena = new PostingArena();
  for (const lists of groupLists(rows, tokens, arena)) {
    lists.forEach((l, tok) => {
      if (l) df.set(tok, (df.get(tok) ?? 0) + l.chunkNos.length);
    });
  }
  arena.release();
  return df;
}

/**
 * Prefix keys are the typed word itself (folded) against lemma keys, never a lemma or stem of it:
 * stems are already truncated, so "pavl%" (from Pavlovi) would reach pavlač and "pes%" pesto.
 * The typed word catches what prefixes are for, truncated words ("kube" → kubernetes).
 */
function prefixKeysFor(
  tokens: QueryToken[],
  toks: Set<number>,
  minPrefixLength: number,
): Key[] {
  const keys: Key[] = [];
  tokens.forEach((t, tok) => {
    const typed = foldDiacritics(t.token.toLocaleLowerCase());
    if (toks.has(tok) && Array.from(typed).length >= minPrefixLength) {
      keys.push({ tok, kind: 'l', term: typed });
    }
  });
  return keys;
}

/**
 * BM25's idf, always positive: a count read while a page was being indexed may exceed the
 * corpus size read a moment before, and counts as the whole corpus.
 */
export const idf = (n: number, df: number) => {
  const d = Math.min(df, n);
  return Math.log(1 + (n - d + 0.5) / (d + 0.5));
};

/**
 * N, average chunk length and per-token document frequencies, all over the chunks the asker
 * can see: a word that only occurs in hidden documents has df 0 here, and idf depends on the
 * asker's own corpus size. Tokens without an exact key fall back to key prefixes.
 */
export async function keywordStatistics(
  options: KeywordOptions,
): Promise<KeywordStatistics> {
  const { reader } = options;
  const minPrefixLength = options.minPrefixLength ?? DEFAULTS.minPrefixLength;
  const prefixWeight = options.prefixWeight ?? DEFAULTS.prefixWeight;
  const tokens = normaliseTokens(options.queryTokens);

  // N and the average length from per-entity totals (migration 0005), not a count of chunks;
  // the exact keys' df at the same time (two connections).
  const [corpus, exact] = await Promise.all([
    reader.corpusTotals(),
    reader.exactDf(exactKeys(tokens)),
  ]);
  const n = corpus.chunks;
  const averageLength = n > 0 ? corpus.terms / n : 0;
  if (n === 0 || tokens.length === 0) {
    return {
      visibleChunks: n,
      averageLength,
      tokens: tokens.map(t => ({
        token: t.token,
        match: 'none',
        df: 0,
        idf: idf(n, 0),
        weight: 0,
      })),
    };
  }

  const missing = new Set(tokens.map((_, i) => i).filter(i => !exact.get(i)));
  const prefix = await prefixDf(
    reader,
    prefixKeysFor(tokens, missing, minPrefixLength),
  );

  return {
    visibleChunks: n,
    averageLength,
    tokens: tokens.map((t, i): TokenStatistics => {
      const exactCount = exact.get(i) ?? 0;
      if (exactCount > 0)
        return {
          token: t.token,
          match: 'exact',
          df: exactCount,
          idf: idf(n, exactCount),
          weight: scoreWeight(t),
        };
      const prefixCount = prefix.get(i) ?? 0;
      if (prefixCount > 0) {
        return {
          token: t.token,
          match: 'prefix',
          df: prefixCount,
          idf: idf(n, prefixCount),
          weight: prefixWeight * scoreWeight(t),
        };
      }
      return {
        token: t.token,
        match: 'none',
        df: 0,
        idf: idf(n, 0),
        weight: 0,
      };
    }),
  };
}

/**
 * The statistics after spelling corrections, without reading them again: a corrected token's one
 * key is the suggested word (undefined when it has dictionary keys too), whose visible df the
 * correction step has just read (`df`), and
 * every other token keeps its keys and so its statistics as typed; N and the average length do
 * not change. Undefined when a correction merged with another token of the question (its keys
 * changed): read them then. Only for corrections read over the same chunks as the statistics
 * (no entity scope: statistics are over everything the asker sees).
 */
export function correctedStatistics(
  asTyped: KeywordStatistics,
  tokens: QueryToken[],
  corrections: ReadonlyArray<{ from: string; to: string; df: number }>,
): KeywordStatistics | undefined {
  if (tokens.length !== asTyped.tokens.length) return undefined;
  const byTo = new Map(corrections.map(c => [c.to, c]));
  const n = asTyped.visibleChunks;
  const out: TokenStatistics[] = [];
  for (const [i, t] of tokens.entries()) {
    const before = asTyped.tokens[i];
    const c = byTo.get(t.token);
    // A corrected word searched with its dictionary keys has their df, not the word's.
    if (c && (t.lemmas.length > 0 || t.stems.length > 0)) return undefined;
    if (c && before.token === c.from && c.df > 0) {
      out.push({
        token: t.token,
        match: 'exact',
        df: c.df,
        idf: idf(n, c.df),
        weight: scoreWeight(t),
      });
    } else if (!c && before.token === t.token) {
      out.push(before);
    } else {
      return undefined;
    }
  }
  return { ...asTyped, tokens: out };
}

export interface KeywordResult {
  hits: KeywordHit[];
  statistics: KeywordStatistics;
}

/** Hits mapped to chunk ids past `limit`, so ties at the cut are ordered by id as before. */
const TIE_WINDOW = 50;

/**
 * A token is read late (only for the entities of chunks that may rank) when it occurs in at
 * least this share of the visible chunks: such lists are the long ones, and their idf is low.
 */
const DEFER_SHARE = 0.02;

/**
 * ...and while all deferred tokens together could add at most this share of the largest other
 * token's best contribution: the exactness check below then nearly always passes.
 */
const DEFER_BOUND = 0.5;

/**
 * Scores visible chunks (within `selection`) by BM25 over the query tokens, with idf from the
 * asker's visible statistics. Exact lemma/stem keys count fully; tokens with no exact match in
 * the visible corpus fall back to prefix matches at `prefixWeight`. Coverage is the idf-weighted
 * share of the asked query the chunk matches (a token with no match anywhere still counts against
 * it; a word only of the asker's situation takes no part).
 * With `selection.chunkIds`, scores exactly those chunks (candidates from elsewhere).
 */
export async function keywordSearch(
  options: KeywordSearchOptions & { limit: number },
): Promise<KeywordResult> {
  const lists = await keywordLists(options);
  const hits = options.selection?.chunkIds
    ? await lists.score(options.selection.chunkIds, options.limit)
    : await lists.best(options.limit);
  lists.release();
  return { hits, statistics: lists.statistics };
}

export interface KeywordSearchOptions extends KeywordOptions {
  selection?: ChunkSelection;
  /** Reuse statistics already computed for the same tokens. */
  statistics?: KeywordStatistics;
  bm25?: { k1?: number; b?: number };
}

/**
 * One question's posting lists, read at most once per entity: `best` finds the best chunks of
 * the visible corpus, `score` then scores other candidates (the vector side's) from the same
 * lists. Every matching chunk is scored in memory (exhaustive BM25); only the best are looked
 * up as chunks, with visibility applied again.
 */
export interface KeywordLists {
  statistics: KeywordStatistics;
  best(limit: number): Promise<KeywordHit[]>;
  /** Hits for the visible ones of `chunkIds`, best first, at most `limit`. */
  score(chunkIds: string[], limit?: number): Promise<KeywordHit[]>;
  /**
   * Gives the decoded lists' memory back for other questions (call once their hits are in;
   * `best` and `score` refuse afterwards).
   */
  release(): void;
}

export async function keywordLists(
  options: KeywordSearchOptions,
): Promise<KeywordLists> {
  const tokens = normaliseTokens(options.queryTokens);
  const statistics =
    options.statistics ??
    (await keywordStatistics({ ...options, queryTokens: tokens }));
  return new QuestionLists(options, tokens, statistics);
}

/** A scored chunk number with its entity. */
type RankedNo = ScoredChunk & { entityNo: number };

/** Tokens read for every visible entity at once (0), or per entity when needed (1). */
type Tier = 0 | 1;

class QuestionLists implements KeywordLists {
  private readonly weights: Array<{ idf: number; weight: number } | undefined>;
  private readonly keys: Array<{ exact: Key[]; prefix: Key[] }>;
  private readonly tierOf: Tier[];
  private readonly totalIdf: number;
  private readonly askedIdf: number;
  private readonly scope: ChunkSelection;
  private readonly bm25: { k1: number; b: number; averageLength: number };
  /** entity_no → per token, its key lists there (a token's keys are read together). */
  private readonly lists = new Map<number, PostingArrays[][]>();
  private readonly unions = new Map<number, Array<PostingArrays | undefined>>();
  /** "entity_no:tok" → the list bytes read for it (to skip a key's identical copy). */
  private readonly raw = new Map<string, Buffer[]>();
  /** Memory of this question's decoded and merged lists. */
  private readonly arena = new PostingArena();
  /** Entities whose lists of a tier are read ('all': every visible entity). */
  private readonly loaded: Array<Set<number> | 'all'> = [new Set(), new Set()];
  private released = false;

  constructor(
    private readonly options: KeywordSearchOptions,
    private readonly tokens: QueryToken[],
    readonly statistics: KeywordStatistics,
  ) {
    const byToken = new Map(statistics.tokens.map(s => [s.token, s]));
    const stats = tokens.map(t => byToken.get(t.token));
    this.totalIdf = stats.reduce((sum, s) => sum + (s?.idf ?? 0), 0);
    // Coverage is of what is asked: a situation word neither adds to it nor is missed.
    this.askedIdf = stats.reduce(
      (sum, s, tok) => sum + (tokens[tok].situation ? 0 : s?.idf ?? 0),
      0,
    );
    this.weights = stats.map(s =>
      s && s.weight > 0 ? { idf: s.idf, weight: s.weight } : undefined,
    );
    const minPrefixLength = options.minPrefixLength ?? DEFAULTS.minPrefixLength;
    const exact = readKeys(
      tokens,
      stats.map(s => s?.match === 'exact'),
    );
    const prefix = prefixKeysFor(
      tokens,
      new Set(stats.flatMap((s, i) => (s?.match === 'prefix' ? [i] : []))),
      minPrefixLength,
    );
    this.keys = tokens.map((_, tok) => ({
      exact: exact.filter(k => k.tok === tok),
      prefix: prefix.filter(k => k.tok === tok),
    }));
    this.bm25 = {
      k1: options.bm25?.k1 ?? DEFAULTS.k1,
      b: options.bm25?.b ?? DEFAULTS.b,
      averageLength: Math.max(statistics.averageLength, 1),
    };
    this.tierOf = deferredTiers(
      stats.map((s, tok) => ({
        df: s?.df ?? 0,
        bound: this.bound(tok),
        read: this.keys[tok].exact.length + this.keys[tok].prefix.length > 0,
      })),
      statistics.visibleChunks,
    );
    this.scope = {
      ...options.selection,
      chunkIds: undefined,
      fewVisible: statistics.visibleChunks <= FEW_VISIBLE_CHUNKS,
    };
  }

  /** The most one token can add to a chunk's BM25 score (tf saturates below k1 + 1). */
  private bound(tok: number): number {
    const w = this.weights[tok];
    return w ? w.weight * w.idf * (this.bm25.k1 + 1) : 0;
  }

  private get empty(): boolean {
    return (
      this.totalIdf <= 0 ||
      this.keys.every(k => k.exact.length === 0 && k.prefix.length === 0)
    );
  }

  release(): void {
    this.released = true;
    this.lists.clear();
    this.unions.clear();
    this.arena.release();
  }

  async best(limit: number): Promise<KeywordHit[]> {
    this.assertHeld();
    const keep = Math.max(0, Math.floor(limit));
    if (keep === 0 || this.empty) return [];
    const window = keep + TIE_WINDOW;
    await this.load(0, 'all');
    const deferred = this.tokens.map((_, t) => t).filter(t => this.tierOf[t]);
    let best: RankedNo[];
    if (deferred.length === 0) {
      best = this.rank(this.entities(), window);
    } else {
      // MaxScore: rank on the early tokens; the deferred ones can add at most `slack`. When
      // `window` chunks already score more than `slack`, a chunk can only rank if its early
      // score is within `slack` of the window's last: read the deferred lists of their
      // entities alone, and rank those chunks on every token. Otherwise read them all.
      const slack = deferred.reduce((sum, t) => sum + this.bound(t), 0);
      const entities = this.entities();
      const { floor, best: early } = groupBounds(
        entities.map(e => this.group(e, 0)),
        this.tokenWeights(),
        { ...this.bm25, keep: window },
      );
      if (floor > slack) {
        // Every chunk that can rank is in the entities whose best early score is within
        // `slack` of the floor, and at least `window` of them score `floor` or more, which no
        // other chunk reaches: ranking all their chunks on every token gives the best.
        const ranked = entities.filter((_, g) => early[g] + slack >= floor);
        await this.load(1, ranked);
        best = this.rank(ranked, window);
      } else {
        await this.load(1, 'all');
        best = this.rank(this.entities(), window);
      }
    }
    if (best.length === 0) return [];
    // Visibility again on the chunk rows: a list can only narrow what the asker sees.
    const idRows = await this.options.reader.chunkIds(
      best.map(c => c.chunkNo),
      this.scope,
    );
    return this.hits(
      best,
      new Map(idRows.map(r => [r.chunkNo, r.chunkId])),
      keep,
    );
  }

  async score(
    chunkIds: string[],
    limit = chunkIds.length,
  ): Promise<KeywordHit[]> {
    this.assertHeld();
    const keep = Math.max(0, Math.floor(limit));
    if (keep === 0 || chunkIds.length === 0 || this.empty) return [];
    const rows = await this.options.reader.chunkNumbers({
      ...this.scope,
      chunkIds,
    });
    if (rows.length === 0) return [];
    const entities = [...new Set(rows.map(r => r.entityNo))];
    await Promise.all([this.load(0, entities), this.load(1, entities)]);
    const best = this.scoreEach(
      rows.map(r => ({ chunkNo: r.chunkNo, entityNo: r.entityNo })),
    );
    return this.hits(
      best,
      new Map(rows.map(r => [r.chunkNo, r.chunkId])),
      keep,
    );
  }

  private assertHeld() {
    if (this.released) throw new Error('posting lists used after release()');
  }

  /** Visible entities with any list read. */
  private entities(): number[] {
    return [...this.lists.keys()];
  }

  /** Reads the lists of a tier's tokens for entities not read yet. */
  private async load(tier: Tier, entities: number[] | 'all'): Promise<void> {
    const done = this.loaded[tier];
    if (done === 'all') return;
    const wanted =
      entities === 'all' ? 'all' : entities.filter(e => !done.has(e));
    if (wanted !== 'all') {
      if (wanted.length === 0) return;
      wanted.forEach(e => done.add(e));
    } else {
      this.loaded[tier] = 'all';
    }
    const toks = this.tokens
      .map((_, t) => t)
      .filter(t => this.tierOf[t] === tier);
    const rows = await this.options.reader.postingLists(
      toks.flatMap(t => this.keys[t].exact),
      toks.flatMap(t => this.keys[t].prefix),
      { ...this.scope, entityNos: wanted === 'all' ? undefined : wanted },
    );
    this.assertHeld();
    for (const row of rows) {
      const lists =
        this.lists.get(row.entityNo) ??
        this.tokens.map((): PostingArrays[] => []);
      this.lists.set(row.entityNo, lists);
      this.unions.delete(row.entityNo);
      // A token's lemma and stem lists are often the same bytes: decode and merge them once.
      const seen = this.raw.get(`${row.entityNo}:${row.tok}`) ?? [];
      if (seen.some(bytes => bytes.equals(row.postings))) continue;
      this.raw.set(`${row.entityNo}:${row.tok}`, [...seen, row.postings]);
      lists[row.tok].push(
        decodePostingArrays(row.postings, row.df, this.arena),
      );
    }
  }

  /** An entity's lists, each token's keys merged (largest tf); `only` masks other tiers. */
  private group(
    entityNo: number,
    only?: Tier,
  ): Array<PostingArrays | undefined> {
    this.assertHeld();
    let merged = this.unions.get(entityNo);
    if (!merged) {
      merged = (this.lists.get(entityNo) ?? []).map(keyLists =>
        keyLists.length ? unionLists(keyLists, this.arena) : undefined,
      );
      this.unions.set(entityNo, merged);
    }
    return only === undefined
      ? merged
      : merged.map((l, t) => (this.tierOf[t] === only ? l : undefined));
  }

  private tokenWeights() {
    return this.weights.map(w => ({ weightedIdf: w ? w.weight * w.idf : 0 }));
  }

  /** The `keep` best chunks of these entities on every token. */
  private rank(entities: number[], keep: number): RankedNo[] {
    return bestChunks(
      entities.map(e => this.group(e)),
      this.tokenWeights(),
      { ...this.bm25, keep },
    ).map(c => ({ ...c, entityNo: entities[c.group] }));
  }

  /** Given chunks (their entities' lists read) on every token, best first; ties by number. */
  private scoreEach(
    chunks: Array<{ chunkNo: number; entityNo: number }>,
  ): RankedNo[] {
    const entities = [...new Set(chunks.map(c => c.entityNo))];
    const groupOf = new Map(entities.map((e, g) => [e, g]));
    return scoreChunks(
      chunks.map(c => ({
        chunkNo: c.chunkNo,
        group: groupOf.get(c.entityNo)!,
      })),
      entities.map(e => this.group(e)),
      this.tokenWeights(),
      this.bm25,
    )
      .map(c => ({ ...c, entityNo: entities[c.group] }))
      .sort((x, y) => y.score - x.score || x.chunkNo - y.chunkNo);
  }

  private hits(
    best: RankedNo[],
    idOf: Map<number, string>,
    limit: number,
  ): KeywordHit[] {
    return best
      .flatMap(c => {
        const chunkId = idOf.get(c.chunkNo);
        if (!chunkId) return [];
        // Matched tokens (and coverage) only for the few chunks returned.
        const group = this.group(c.entityNo);
        const toks = group.flatMap((list, tok) =>
          this.weights[tok] && listHas(list, c.chunkNo) ? [tok] : [],
        );
        const matched = toks.reduce(
          (sum, tok) =>
            this.tokens[tok].situation
              ? sum
              : sum + this.weights[tok]!.idf * this.weights[tok]!.weight,
          0,
        );
        return [{ chunkId, score: c.score, matched, toks }];
      })
      .sort(
        (x, y) =>
          y.score - x.score ||
          (x.chunkId < y.chunkId ? -1 : x.chunkId > y.chunkId ? 1 : 0),
      )
      .slice(0, limit)
      .map(
        (e, i): KeywordHit => ({
          chunkId: e.chunkId,
          score: e.score,
          coverage:
            this.askedIdf > 0 ? Math.min(1, e.matched / this.askedIdf) : 0,
          matchedTokens: e.toks.map(tok => this.tokens[tok].token),
          rank: i + 1,
        }),
      );
  }
}

/**
 * Which tokens to defer: the most frequent first, while each occurs in DEFER_SHARE of the
 * visible chunks, their bounds stay under DEFER_BOUND of the largest remaining one, and one
 * token is left to rank on.
 */
export function deferredTiers(
  tokens: Array<{ df: number; bound: number; read: boolean }>,
  visibleChunks: number,
): Tier[] {
  const tiers: Tier[] = tokens.map(() => 0);
  const order = tokens
    .map((_, i) => i)
    .filter(i => tokens[i].read && tokens[i].bound > 0)
    .sort((x, y) => tokens[y].df - tokens[x].df);
  let slack = 0;
  for (let n = 0; n < order.length - 1; n++) {
    const t = tokens[order[n]];
    const rest = Math.max(...order.slice(n + 1).map(i => tokens[i].bound));
    if (t.df < DEFER_SHARE * visibleChunks) break;
    if (slack + t.bound > DEFER_BOUND * rest) break;
    slack += t.bound;
    tiers[order[n]] = 1;
  }
  return tiers;
}
