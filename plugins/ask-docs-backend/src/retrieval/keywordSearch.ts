import { foldDiacritics } from '../language';
import { Knex } from 'knex';
import { Visibility } from '../permissions/visibility';
import { decodePostingArrays, PostingArrays } from '../database/postingList';
import { bestChunks, listHas, unionLists } from './listScoring';
import {
  ChunkSelection,
  FEW_VISIBLE_CHUNKS,
  visibleChunks,
  visibleEntityTotals,
  visiblePostings,
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
 * Per-token visible df via exact keys (tok → df), from the posting lists' counts: a key's df is
 * the sum over visible entities, a token's the largest of its keys' (its lemma, stem and surface
 * keys nearly always occur in the same chunks; the union would need the lists themselves).
 */
async function exactDf(
  knex: Knex,
  visibility: Visibility,
  keys: Key[],
  scope?: ChunkSelection,
) {
  const df = new Map<number, number>();
  if (keys.length === 0) return df;
  const values = valuesList(keys);
  const result = await knex.raw(
    `SELECT s.tok, max(s.df)::int AS df FROM (
       SELECT q.tok, q.kind, q.term, sum(p.df) AS df
         FROM ${values.sql} AS q(tok, kind, term)
         JOIN ask_docs_keys AS k ON k.kind = q.kind AND k.term = q.term
         JOIN ? AS p ON p.key_id = k.key_id
        GROUP BY q.tok, q.kind, q.term) AS s
      GROUP BY s.tok`,
    [...values.bindings, visiblePostings(knex, visibility, scope)],
  );
  for (const row of result.rows) df.set(Number(row.tok), Number(row.df));
  return df;
}

/**
 * The visible posting lists of exact keys and of prefix keys (one branch per prefix, so each
 * LIKE has a constant pattern and uses the dictionary's index), as (tok, postings) rows.
 */
async function readLists(
  knex: Knex,
  visibility: Visibility,
  exact: Key[],
  prefix: Key[],
  scope?: ChunkSelection,
): Promise<ListRow[]> {
  const branches: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  if (exact.length > 0) {
    const values = valuesList(exact);
    branches.push(
      `SELECT q.tok, p.entity_no, p.df, ${LIST_COLUMN} FROM ${values.sql} AS q(tok, kind, term)
         JOIN ask_docs_keys AS k ON k.kind = q.kind AND k.term = q.term
         JOIN ? AS p ON p.key_id = k.key_id`,
    );
    bindings.push(...values.bindings, visiblePostings(knex, visibility, scope));
  }
  for (const key of prefix) {
    branches.push(
      `SELECT ?::int AS tok, p.entity_no, p.df, ${LIST_COLUMN} FROM ask_docs_keys AS k
         JOIN ? AS p ON p.key_id = k.key_id
        WHERE k.kind = ? AND k.term LIKE ? ESCAPE '!'`,
    );
    bindings.push(
      key.tok,
      visiblePostings(knex, visibility, scope),
      key.kind,
      prefixPattern(key.term),
    );
  }
  if (branches.length === 0) return [];
  const result = await knex.raw(branches.join(' UNION ALL '), bindings);
  return result.rows.map(
    (r: Omit<ListRow, 'postings'> & { postings: string }) => ({
      tok: Number(r.tok),
      entity_no: Number(r.entity_no),
      df: Number(r.df),
      postings: Buffer.from(r.postings, 'base64'),
    }),
  );
}

/**
 * Lists travel as base64 text: a bytea column arrives as hex, twice the list's size to send
 * and parse (at 100k chunks a query's lists are megabytes). Node skips the line breaks.
 */
const LIST_COLUMN = "encode(p.postings, 'base64') AS postings";

interface ListRow {
  tok: number;
  entity_no: number;
  df: number;
  postings: Buffer;
}

/**
 * Lists grouped by entity, each token's key lists merged into one (largest tf): `groups[g][tok]`
 * is the token's list in entity group g, undefined where it has none.
 */
function groupLists(rows: ListRow[], tokens: number) {
  const byEntity = new Map<number, PostingArrays[][]>();
  for (const row of rows) {
    const lists =
      byEntity.get(row.entity_no) ??
      Array.from({ length: tokens }, (): PostingArrays[] => []);
    byEntity.set(row.entity_no, lists);
    lists[row.tok].push(decodePostingArrays(row.postings, row.df));
  }
  return [...byEntity.values()].map(lists =>
    lists.map(keyLists => (keyLists.length ? unionLists(keyLists) : undefined)),
  );
}

async function prefixDf(
  knex: Knex,
  visibility: Visibility,
  keys: Key[],
  scope?: ChunkSelection,
) {
  const df = new Map<number, number>();
  const tokens = Math.max(-1, ...keys.map(k => k.tok)) + 1;
  for (const lists of groupLists(
    await readLists(knex, visibility, [], keys, scope),
    tokens,
  )) {
    lists.forEach((l, tok) => {
      if (l) df.set(tok, (df.get(tok) ?? 0) + l.chunkNos.length);
    });
  }
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

export interface KeywordResult {
  hits: KeywordHit[];
  statistics: KeywordStatistics;
}

/** Hits mapped to chunk ids past `limit`, so ties at the cut are ordered by id as before. */
const TIE_WINDOW = 50;

/**
 * Scores visible chunks (within `selection`) by BM25 over the query tokens, with idf from the
 * asker's visible statistics. Exact lemma/stem keys count fully; tokens with no exact match in
 * the visible corpus fall back to prefix matches at `prefixWeight`. Coverage is the idf-weighted
 * share of the query the chunk matches (a token with no match anywhere still counts against it).
 * The posting lists carry tf and chunk length, so every matching chunk is scored here, in
 * memory; only the best are looked up as chunks (visibility applied again).
 */
export async function keywordSearch(
  options: KeywordOptions & {
    selection?: ChunkSelection;
    limit: number;
    /** Reuse statistics already computed for the same tokens. */
    statistics?: KeywordStatistics;
    bm25?: { k1?: number; b?: number };
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

  const narrowed: ChunkSelection = {
    ...selection,
    fewVisible: statistics.visibleChunks <= FEW_VISIBLE_CHUNKS,
  };
  // A chunk id selection (scores for known candidates) is applied to the decoded lists, and
  // only the lists of the selected chunks' entities are read.
  let allowed: Set<number> | undefined;
  let listScope = narrowed;
  if (selection?.chunkIds) {
    const rows: Array<{ chunk_no: number; entity_ref: string }> =
      await visibleChunks(knex, visibility, narrowed).select(
        'c.chunk_no',
        'c.entity_ref',
      );
    if (rows.length === 0) return { hits: [], statistics };
    allowed = new Set(rows.map(r => r.chunk_no));
    listScope = {
      ...narrowed,
      entityRefs: Array.from(new Set(rows.map(r => r.entity_ref))),
    };
  }
  const groups = groupLists(
    await readLists(knex, visibility, exact, prefix, listScope),
    tokens.length,
  );
  const weights = stats.map(s =>
    s && s.weight > 0 ? { idf: s.idf, weight: s.weight } : undefined,
  );
  const best = bestChunks(
    groups,
    weights.map(w => ({ weightedIdf: w ? w.weight * w.idf : 0 })),
    {
      k1: options.bm25?.k1 ?? DEFAULTS.k1,
      b: options.bm25?.b ?? DEFAULTS.b,
      averageLength: Math.max(statistics.averageLength, 1),
      keep: limit + TIE_WINDOW,
      allowed,
    },
  );
  if (best.length === 0) return { hits: [], statistics };
  // Visibility again on the chunk rows: a list can only narrow what the asker sees.
  const idRows = await visibleChunks(knex, visibility, narrowed)
    .whereRaw('c.chunk_no = ANY(?::int[])', [best.map(c => c.chunkNo)])
    .select('c.chunk_no', 'c.chunk_id');
  const idOf = new Map<number, string>(
    idRows.map((r: { chunk_no: number; chunk_id: string }) => [
      r.chunk_no,
      r.chunk_id,
    ]),
  );
  const hits = best
    .flatMap(c => {
      const chunkId = idOf.get(c.chunkNo);
      if (!chunkId) return [];
      // Matched tokens (and coverage) only for the few chunks returned.
      const toks = groups[c.group].flatMap((list, tok) =>
        weights[tok] && listHas(list, c.chunkNo) ? [tok] : [],
      );
      const matched = toks.reduce(
        (sum, tok) => sum + weights[tok]!.idf * weights[tok]!.weight,
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
        coverage: Math.min(1, e.matched / totalIdf),
        matchedTokens: e.toks.map(tok => tokens[tok].token),
        rank: i + 1,
      }),
    );
  return { hits, statistics };
}
