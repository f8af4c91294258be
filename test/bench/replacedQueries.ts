/*
 * The layout and query shapes the posting lists (migration 0006) replaced, kept here only as
 * same-run baselines for the benchmark (issue 15): one row per (chunk, key) as 0005's
 * ask_docs_terms had them, in a bench-only table filled with the same keys. The product no
 * longer has that table or runs these queries.
 */
import { Knex } from 'knex';
import { Visibility } from '../../plugins/ask-docs-backend/src/permissions';
import {
  exactKeys,
  KeywordStatistics,
  normaliseTokens,
  QueryToken,
} from '../../plugins/ask-docs-backend/src/retrieval/keywordSearch';
import {
  applyVisibility,
  visibleChunks,
} from '../../plugins/ask-docs-backend/src/database/visibilityPredicate';

export const ROW_POSTINGS = 'bench_row_postings';

/** The replaced table, with 0005's keys and indexes (its statistics tables not included). */
export async function createRowPostings(knex: Knex) {
  await knex.raw(`CREATE TABLE IF NOT EXISTS ${ROW_POSTINGS} (
    chunk_id text NOT NULL, entity_ref text NOT NULL, kind text NOT NULL, term text NOT NULL,
    tf integer NOT NULL, PRIMARY KEY (chunk_id, kind, term))`);
  await knex.raw(`CREATE INDEX IF NOT EXISTS ${ROW_POSTINGS}_by_term
    ON ${ROW_POSTINGS} (kind, term text_pattern_ops, entity_ref) INCLUDE (chunk_id, tf)`);
}

/** Row postings whose own entity is visible, as `t` (the replaced base of every keyword read). */
function visibleRowPostings(knex: Knex, visibility: Visibility) {
  const inner = knex.select('vt.*').from({ vt: ROW_POSTINGS });
  applyVisibility(visibility, inner, 'vt.entity_ref');
  return knex.from(inner.as('t'));
}

const valuesOf = (tokens: QueryToken[]) => {
  const keys = exactKeys(normaliseTokens(tokens));
  return {
    keys,
    sql: `(VALUES ${keys.map(() => '(?::int, ?::text, ?::text)').join(', ')})`,
    bindings: keys.flatMap(k => [k.tok, k.kind, k.term]),
  };
};

/** Per-token document frequency counted over the visible row postings (union of its keys). */
export async function documentFrequencies(
  knex: Knex,
  visibility: Visibility,
  tokens: QueryToken[],
) {
  const v = valuesOf(tokens);
  if (v.keys.length === 0) return [];
  const result = await knex.raw(
    `SELECT q.tok, count(DISTINCT t.chunk_id)::int AS df
       FROM ? AS t JOIN ${v.sql} AS q(tok, kind, term) ON t.kind = q.kind AND t.term = q.term
      GROUP BY q.tok`,
    [visibleRowPostings(knex, visibility), ...v.bindings],
  );
  return result.rows as Array<{ tok: number; df: number }>;
}

/**
 * The replaced keyword scoring: every visible row posting of every exact key, BM25 in SQL
 * with the chunk lengths joined, exhaustive (statistics passed in, so scores are comparable).
 */
export async function rowPostingsKeywordSearch(
  knex: Knex,
  visibility: Visibility,
  tokens: QueryToken[],
  statistics: KeywordStatistics,
  limit: number,
): Promise<string[]> {
  const normal = normaliseTokens(tokens);
  const byToken = new Map(statistics.tokens.map(s => [s.token, s]));
  const weights = normal.flatMap((t, tok) => {
    const s = byToken.get(t.token);
    return s && s.match === 'exact'
      ? [{ tok, idf: s.idf, weight: s.weight }]
      : [];
  });
  const keys = exactKeys(normal).filter(k =>
    weights.some(w => w.tok === k.tok),
  );
  if (keys.length === 0) return [];
  const avglen = Math.max(statistics.averageLength, 1);
  const result = await knex.raw(
    `WITH m AS (
       SELECT q.tok, t.chunk_id, max(t.tf) AS tf FROM ? AS t
         JOIN (VALUES ${keys
           .map(() => '(?::int, ?::text, ?::text)')
           .join(', ')})
           AS q(tok, kind, term) ON t.kind = q.kind AND t.term = q.term
        GROUP BY q.tok, t.chunk_id)
     SELECT m.chunk_id, sum(w.weight * w.idf * (m.tf * 2.2) /
              (m.tf + 1.2 * (0.25 + 0.75 * c.term_count / ?::float8))) AS score
       FROM m JOIN (VALUES ${weights
         .map(() => '(?::int, ?::float8, ?::float8)')
         .join(', ')})
         AS w(tok, weight, idf) ON w.tok = m.tok
       JOIN ? AS c ON c.chunk_id = m.chunk_id
      GROUP BY m.chunk_id ORDER BY score DESC, m.chunk_id LIMIT ?`,
    [
      visibleRowPostings(knex, visibility),
      ...keys.flatMap(k => [k.tok, k.kind, k.term]),
      avglen,
      ...weights.flatMap(w => [w.tok, w.weight, w.idf]),
      visibleChunks(knex, visibility),
      limit,
    ],
  );
  return result.rows.map((r: { chunk_id: string }) => r.chunk_id);
}

/** The replaced spelling-candidate query: every visible 'w' row posting with a matching head. */
export async function postingsScanCandidates(
  knex: Knex,
  visibility: Visibility,
  word: string,
  maxDistance: number,
) {
  const chars = Array.from(word);
  const heads = Array.from(new Set([chars[0], chars[1]]));
  const result = await knex.raw(
    `SELECT t.term, count(DISTINCT t.chunk_id)::int AS df FROM ? AS t
      WHERE t.kind = 'w' AND char_length(t.term) BETWEEN ? AND ?
        AND (${heads
          .map(() => `t.term LIKE ?`)
          .join(' OR ')} OR substr(t.term, 2, 1) = ANY(?::text[]))
      GROUP BY t.term ORDER BY df DESC, t.term LIMIT 2000`,
    [
      visibleRowPostings(knex, visibility),
      chars.length - maxDistance,
      chars.length + maxDistance,
      ...heads.map(h => `${h}%`),
      heads,
    ],
  );
  return result.rows as Array<{ term: string; df: number }>;
}

/** A deterministic misspelling: the longest word with two middle letters swapped. */
export function misspell(tokens: QueryToken[]): QueryToken | undefined {
  const longest = [...tokens]
    .filter(t => /^\p{L}+$/u.test(t.token) && t.token.length >= 7)
    .sort(
      (a, b) =>
        b.token.length - a.token.length || a.token.localeCompare(b.token),
    )[0];
  if (!longest) return undefined;
  const c = Array.from(longest.token);
  const i = Math.floor(c.length / 2);
  [c[i - 1], c[i]] = [c[i], c[i - 1]];
  const token = c.join('');
  if (token === longest.token) return undefined;
  return { token, lemmas: [token], stems: [token], words: [token] };
}
