import { foldDiacritics } from '../language';
import { Knex } from 'knex';
import { Visibility } from '../permissions/visibility';
import {
  ChunkSelection,
  FEW_VISIBLE_CHUNKS,
  visibleChunks,
  visibleEntityTotals,
  visibleKeyStats,
  visibleTerms,
} from './visibleChunks';

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
   * How much a match of this token counts, in score and coverage (default 1). A spelling
   * correction is a guess at what was meant, so it counts less than a word as typed.
   */
  weight?: number;
}

export interface TokenStatistics {
  token: string;
  /** How the token matches the visible corpus: its own keys, key prefixes (fallback), or not at all. */
  match: 'exact' | 'prefix' | 'none';
  /** Visible chunks containing the token (via the keys of `match`). */
  df: number;
  idf: number;
  /** Score weight: the token's weight (1 as typed) for exact, times `prefixWeight` for prefix, 0 for none. */
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
  /** idf-weighted fraction of the query tokens this chunk matches, in [0, 1]. */
  coverage: number;
  matchedTokens: string[];
  /** 1-based. */
  rank: number;
}

export interface KeywordOptions {
  knex: Knex;
  visibility: Visibility;
  queryTokens: QueryToken[];
  /** Prefix keys shorter than this are not expanded (e.g. "ab%" would match half the corpus). */
  minPrefixLength?: number;
  /** Weight of a prefix match relative to an exact one. */
  prefixWeight?: number;
}

const DEFAULTS = { minPrefixLength: 4, prefixWeight: 0.5, k1: 1.2, b: 0.75 };

type Kind = 'l' | 's' | 'w';
interface Key {
  tok: number;
  kind: Kind;
  term: string;
}

/** Merges duplicate tokens so a repeated word does not count twice. */
const tokenWeight = (t: QueryToken) =>
  typeof t.weight === 'number' && t.weight >= 0 && t.weight <= 1 ? t.weight : 1;

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
    });
  }
  return Array.from(byToken.values());
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

/** LIKE pattern for "starts with", with the metacharacters of the key escaped ('!' is the escape). */
export function prefixPattern(key: string): string {
  return `${key.replace(/[!%_]/g, ch => `!${ch}`)}%`;
}

function valuesList(keys: Key[]): { sql: string; bindings: Knex.RawBinding[] } {
  return {
    sql: `(VALUES ${keys.map(() => '(?::int, ?::text, ?::text)').join(', ')})`,
    bindings: keys.flatMap(k => [k.tok, k.kind, k.term]),
  };
}

/**
 * Per-token visible df via exact keys (tok → df), from the per-entity key statistics: a key's
 * df is the sum over visible entities, a token's the largest of its keys' (its lemma, stem and
 * surface keys nearly always occur in the same chunks; the union would need the postings).
 */
async function exactDf(knex: Knex, visibility: Visibility, keys: Key[]) {
  const df = new Map<number, number>();
  if (keys.length === 0) return df;
  const values = valuesList(keys);
  const result = await knex.raw(
    `SELECT k.tok, max(k.df)::int AS df FROM (
       SELECT q.tok, q.kind, q.term, sum(ks.df) AS df
         FROM ? AS ks JOIN ${values.sql} AS q(tok, kind, term)
           ON ks.kind = q.kind AND ks.term = q.term
        GROUP BY q.tok, q.kind, q.term) AS k
      GROUP BY k.tok`,
    [visibleKeyStats(knex, visibility), ...values.bindings],
  );
  for (const row of result.rows) df.set(Number(row.tok), Number(row.df));
  return df;
}

/** One branch per prefix key so each LIKE has a constant pattern and can use the prefix index. */
function prefixBranches(
  knex: Knex,
  visibility: Visibility,
  keys: Key[],
  selection?: ChunkSelection,
): { sql: string; bindings: Knex.RawBinding[] } {
  return {
    sql: keys
      .map(
        () =>
          `SELECT ?::int AS tok, vt.chunk_id, vt.tf FROM ? AS vt WHERE vt.kind = ? AND vt.term LIKE ? ESCAPE '!'`,
      )
      .join(' UNION ALL '),
    bindings: keys.flatMap(k => [
      k.tok,
      visibleTerms(knex, visibility, selection),
      k.kind,
      prefixPattern(k.term),
    ]),
  };
}

async function prefixDf(knex: Knex, visibility: Visibility, keys: Key[]) {
  const df = new Map<number, number>();
  if (keys.length === 0) return df;
  const branches = prefixBranches(knex, visibility, keys);
  const result = await knex.raw(
    `SELECT u.tok, count(DISTINCT u.chunk_id)::int AS df FROM (${branches.sql}) AS u GROUP BY u.tok`,
    branches.bindings,
  );
  for (const row of result.rows) df.set(Number(row.tok), Number(row.df));
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

/** BM25's idf, always positive. */
export const idf = (n: number, df: number) =>
  Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * N, average chunk length and per-token document frequencies, all over the chunks the asker
 * can see: a word that only occurs in hidden documents has df 0 here, and idf depends on the
 * asker's own corpus size. Tokens without an exact key fall back to key prefixes.
 */
export async function keywordStatistics(
  options: KeywordOptions,
): Promise<KeywordStatistics> {
  const { knex, visibility } = options;
  const minPrefixLength = options.minPrefixLength ?? DEFAULTS.minPrefixLength;
  const prefixWeight = options.prefixWeight ?? DEFAULTS.prefixWeight;
  const tokens = normaliseTokens(options.queryTokens);

  // N and the average length from per-entity totals (migration 0005), not a count of chunks.
  const corpus = await knex.raw(
    `SELECT coalesce(sum(et.chunks), 0)::int8 AS n, coalesce(sum(et.terms), 0)::float8 AS terms
       FROM ? AS et`,
    [visibleEntityTotals(knex, visibility)],
  );
  const n = Number(corpus.rows[0].n);
  const averageLength = n > 0 ? Number(corpus.rows[0].terms) / n : 0;
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

  const exact = await exactDf(knex, visibility, exactKeys(tokens));
  const missing = new Set(tokens.map((_, i) => i).filter(i => !exact.get(i)));
  const prefix = await prefixDf(
    knex,
    visibility,
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
          weight: tokenWeight(t),
        };
      const prefixCount = prefix.get(i) ?? 0;
      if (prefixCount > 0) {
        return {
          token: t.token,
          match: 'prefix',
          df: prefixCount,
          idf: idf(n, prefixCount),
          weight: prefixWeight * tokenWeight(t),
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
 * Summed visible df up to which tokens' postings are read whole. At 100k chunks a common word
 * has tens of thousands of postings; reading them all is most of a query's time (issue 15).
 */
export const KEYWORD_CANDIDATE_BUDGET = 5000;

/**
 * Candidates, best first by the rare tokens' score, that get the common tokens' tf added when
 * the budget left tokens out. A common token's idf is low, so its tf rarely lifts a chunk from
 * below this rank into the results; the benchmark measures the overlap with exhaustive scoring.
 */
export const RESCORED_CANDIDATES = 200;

export interface KeywordResult {
  hits: KeywordHit[];
  statistics: KeywordStatistics;
  /**
   * False when common tokens only scored the candidates of rarer ones (candidate budget), so a
   * chunk matching common tokens alone could not be ranked.
   */
  exhaustive: boolean;
}

/** Matched tokens, rarest first, while their summed df fits the budget (at least one). */
export function essentialTokens(
  stats: Array<TokenStatistics | undefined>,
  budget: number,
): Set<number> {
  const order = stats
    .flatMap((s, tok) =>
      s && s.match !== 'none' && s.weight > 0 ? [{ tok, df: s.df }] : [],
    )
    .sort((a, b) => a.df - b.df || a.tok - b.tok);
  const chosen = new Set<number>();
  let sum = 0;
  for (const { tok, df } of order) {
    if (chosen.size > 0 && sum + df > budget) break;
    chosen.add(tok);
    sum += df;
  }
  return chosen;
}

/** Postings rows (tok, chunk_id, tf) of the given exact and prefix keys, visible ones only. */
function matchBranches(
  knex: Knex,
  visibility: Visibility,
  exact: Key[],
  prefix: Key[],
  selection?: ChunkSelection,
): { sql: string; bindings: Knex.RawBinding[] } {
  const branches: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  if (exact.length > 0) {
    const values = valuesList(exact);
    branches.push(
      `SELECT q.tok, vt.chunk_id, vt.tf FROM ? AS vt JOIN ${values.sql} AS q(tok, kind, term)
          ON vt.kind = q.kind AND vt.term = q.term`,
    );
    bindings.push(
      visibleTerms(knex, visibility, selection),
      ...values.bindings,
    );
  }
  if (prefix.length > 0) {
    const p = prefixBranches(knex, visibility, prefix, selection);
    branches.push(p.sql);
    bindings.push(...p.bindings);
  }
  return { sql: branches.join(' UNION ALL '), bindings };
}

/**
 * Scores visible chunks (within `selection`) by BM25 over the query tokens, with idf from the
 * asker's visible statistics. Exact lemma/stem keys count fully; tokens with no exact match in
 * the visible corpus fall back to prefix matches at `prefixWeight`. Coverage is the idf-weighted
 * share of the query the chunk matches (a token with no match anywhere still counts against it).
 */
export async function keywordSearch(
  options: KeywordOptions & {
    selection?: ChunkSelection;
    limit: number;
    /** Reuse statistics already computed for the same tokens. */
    statistics?: KeywordStatistics;
    bm25?: { k1?: number; b?: number };
    /** Summed df of the tokens whose postings supply candidates; default KEYWORD_CANDIDATE_BUDGET. */
    candidateBudget?: number;
  },
): Promise<KeywordResult> {
  const { knex, visibility, selection } = options;
  const tokens = normaliseTokens(options.queryTokens);
  const statistics =
    options.statistics ??
    (await keywordStatistics({ ...options, queryTokens: tokens }));
  const byToken = new Map(statistics.tokens.map(s => [s.token, s]));
  const stats = tokens.map(t => byToken.get(t.token));
  const limit = Math.max(0, Math.floor(options.limit));
  const totalIdf = stats.reduce((sum, s) => sum + (s?.idf ?? 0), 0);
  if (limit === 0 || totalIdf <= 0)
    return { hits: [], statistics, exhaustive: true };

  const minPrefixLength = options.minPrefixLength ?? DEFAULTS.minPrefixLength;
  const exactToks = new Set(
    stats.flatMap((s, i) => (s?.match === 'exact' ? [i] : [])),
  );
  const prefixToks = new Set(
    stats.flatMap((s, i) => (s?.match === 'prefix' ? [i] : [])),
  );
  const exact = exactKeys(tokens).filter(k => exactToks.has(k.tok));
  const prefix = prefixKeysFor(tokens, prefixToks, minPrefixLength);
  if (exact.length === 0 && prefix.length === 0)
    return { hits: [], statistics, exhaustive: true };

  // Candidates come from the rarest tokens' postings while their summed df fits the budget;
  // the other (common, low-idf) tokens only add their tf to those candidates. A chunk that
  // matches common tokens alone is then not ranked: with a low idf it rarely would be.
  const essential = essentialTokens(
    stats,
    selection?.chunkIds
      ? Infinity
      : options.candidateBudget ?? KEYWORD_CANDIDATE_BUDGET,
  );
  const narrowed: ChunkSelection = {
    ...selection,
    fewVisible: statistics.visibleChunks <= FEW_VISIBLE_CHUNKS,
  };
  const part = (toks: Set<number>) =>
    matchBranches(
      knex,
      visibility,
      exact.filter(k => toks.has(k.tok)),
      prefix.filter(k => toks.has(k.tok)),
      narrowed,
    );
  const found = part(essential);
  if (found.sql === '') return { hits: [], statistics, exhaustive: true };
  const rest = part(
    new Set([...exactToks, ...prefixToks].filter(tok => !essential.has(tok))),
  );
  const weighted = stats.flatMap((s, tok) =>
    s && s.weight > 0 ? [{ tok, weight: s.weight, idf: s.idf }] : [],
  );
  const k1 = options.bm25?.k1 ?? DEFAULTS.k1;
  const b = options.bm25?.b ?? DEFAULTS.b;
  const avglen = Math.max(statistics.averageLength, 1);

  // BM25 of one (token, chunk) row: `m` has tok and tf, `len` is the chunk length column.
  const bm25 = (len: string) =>
    `w.weight * w.idf * (m.tf * (?::float8 + 1)) /
       (m.tf + ?::float8 * (1 - ?::float8 + ?::float8 * ${len} / ?::float8))`;
  const bm25Bindings = [k1, k1, b, b, avglen];
  const weights = {
    sql: `(VALUES ${weighted
      .map(() => '(?::int, ?::float8, ?::float8)')
      .join(', ')})`,
    bindings: weighted.flatMap(w => [w.tok, w.weight, w.idf]),
  };
  // With common tokens left out of the candidates, only the best RESCORED_CANDIDATES (by the
  // rare tokens' score) get the common tokens' tf looked up: one index probe per chunk and key.
  const rescored = Math.max(RESCORED_CANDIDATES, limit);
  const result = await knex.raw(
    `WITH found AS (
       SELECT x.tok, x.chunk_id, max(x.tf) AS tf FROM (${found.sql}) AS x
        GROUP BY x.tok, x.chunk_id),
     scored AS (
       SELECT m.chunk_id, c.term_count, sum(${bm25('c.term_count')}) AS score
         FROM found AS m JOIN ${
           weights.sql
         } AS w(tok, weight, idf) ON w.tok = m.tok
         JOIN ? AS c ON c.chunk_id = m.chunk_id
        GROUP BY m.chunk_id, c.term_count
        ${rest.sql ? 'ORDER BY score DESC, m.chunk_id LIMIT ?' : ''}),
     matched AS (
       SELECT f.* FROM found AS f WHERE f.chunk_id IN (SELECT s.chunk_id FROM scored AS s)
       ${
         rest.sql
           ? `UNION ALL
       SELECT y.tok, y.chunk_id, max(y.tf) AS tf FROM (${rest.sql}) AS y
        WHERE y.chunk_id IN (SELECT s.chunk_id FROM scored AS s)
        GROUP BY y.tok, y.chunk_id`
           : ''
       })
     SELECT m.chunk_id,
            sum(${bm25('s.term_count')}) AS score,
            sum(w.idf * w.weight) AS matched,
            array_agg(m.tok ORDER BY m.tok) AS toks
       FROM matched AS m
       JOIN ${weights.sql} AS w(tok, weight, idf) ON w.tok = m.tok
       JOIN scored AS s ON s.chunk_id = m.chunk_id
      GROUP BY m.chunk_id
      ORDER BY score DESC, m.chunk_id
      LIMIT ?`,
    [
      ...found.bindings,
      ...bm25Bindings,
      ...weights.bindings,
      visibleChunks(knex, visibility, narrowed),
      ...(rest.sql ? [rescored] : []),
      ...rest.bindings,
      ...bm25Bindings,
      ...weights.bindings,
      limit,
    ],
  );

  const hits = result.rows.map(
    (
      row: {
        chunk_id: string;
        score: string | number;
        matched: string | number;
        toks: number[];
      },
      i: number,
    ): KeywordHit => ({
      chunkId: row.chunk_id,
      score: Number(row.score),
      coverage: Math.min(1, Number(row.matched) / totalIdf),
      matchedTokens: Array.from(new Set(row.toks.map(Number))).map(
        tok => tokens[tok].token,
      ),
      rank: i + 1,
    }),
  );
  return { hits, statistics, exhaustive: rest.sql === '' };
}
