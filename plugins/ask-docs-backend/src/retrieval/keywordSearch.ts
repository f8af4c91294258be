import { foldDiacritics } from '../language';
import { Knex } from 'knex';
import { Visibility } from '../permissions/visibility';
import { ChunkSelection, visibleChunks, visibleTerms } from './visibleChunks';

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

/** Per-token visible df via exact keys: tok → df. */
async function exactDf(
  knex: Knex,
  visibility: Visibility,
  keys: Key[],
  selection?: ChunkSelection,
) {
  const df = new Map<number, number>();
  if (keys.length === 0) return df;
  const values = valuesList(keys);
  const result = await knex.raw(
    `SELECT q.tok, count(DISTINCT vt.chunk_id)::int AS df
       FROM ? AS vt JOIN ${values.sql} AS q(tok, kind, term) ON vt.kind = q.kind AND vt.term = q.term
      GROUP BY q.tok`,
    [visibleTerms(knex, visibility, selection), ...values.bindings],
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

  const corpus = await knex.raw(
    `SELECT count(*)::int AS n, coalesce(avg(vc.term_count), 0)::float8 AS avglen FROM ? AS vc`,
    [visibleChunks(knex, visibility)],
  );
  const n = Number(corpus.rows[0].n);
  const averageLength = Number(corpus.rows[0].avglen);
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
  },
): Promise<{ hits: KeywordHit[]; statistics: KeywordStatistics }> {
  const { knex, visibility, selection } = options;
  const tokens = normaliseTokens(options.queryTokens);
  const statistics =
    options.statistics ??
    (await keywordStatistics({ ...options, queryTokens: tokens }));
  const byToken = new Map(statistics.tokens.map(s => [s.token, s]));
  const stats = tokens.map(t => byToken.get(t.token));
  const limit = Math.max(0, Math.floor(options.limit));
  const totalIdf = stats.reduce((sum, s) => sum + (s?.idf ?? 0), 0);
  if (limit === 0 || totalIdf <= 0) return { hits: [], statistics };

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
    return { hits: [], statistics };

  const branches: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  if (exact.length > 0) {
    const values = valuesList(exact);
    branches.push(
      `SELECT q.tok, vt.chunk_id, vt.tf FROM ? AS vt JOIN ${values.sql} AS q(tok, kind, term) ON vt.kind = q.kind AND vt.term = q.term`,
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
  const weighted = stats.flatMap((s, tok) =>
    s && s.weight > 0 ? [{ tok, weight: s.weight, idf: s.idf }] : [],
  );
  const k1 = options.bm25?.k1 ?? DEFAULTS.k1;
  const b = options.bm25?.b ?? DEFAULTS.b;
  const avglen = Math.max(statistics.averageLength, 1);

  const result = await knex.raw(
    `SELECT m.chunk_id,
            sum(w.weight * w.idf * (m.tf * (?::float8 + 1)) /
                (m.tf + ?::float8 * (1 - ?::float8 + ?::float8 * c.term_count / ?::float8))) AS score,
            sum(w.idf * w.weight) AS matched,
            array_agg(m.tok) AS toks
       FROM (SELECT x.tok, x.chunk_id, max(x.tf) AS tf FROM (${branches.join(
         ' UNION ALL ',
       )}) AS x
              GROUP BY x.tok, x.chunk_id) AS m
       JOIN (VALUES ${weighted
         .map(() => '(?::int, ?::float8, ?::float8)')
         .join(', ')}) AS w(tok, weight, idf)
         ON w.tok = m.tok
       JOIN ? AS c ON c.chunk_id = m.chunk_id
      GROUP BY m.chunk_id
      ORDER BY score DESC, m.chunk_id
      LIMIT ?`,
    [
      k1,
      k1,
      b,
      b,
      avglen,
      ...bindings,
      ...weighted.flatMap(w => [w.tok, w.weight, w.idf]),
      visibleChunks(knex, visibility, selection),
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
  return { hits, statistics };
}
