/*
 * The query shapes migrations 0002 and 0005 replaced, kept here only as same-run baselines for
 * the benchmark (docs/evaluation.md, findings 3 and 4; issue 15). The product no longer runs them.
 */
import { Knex } from 'knex';
import { Visibility } from '../../plugins/ask-docs-backend/src/permissions';
import {
  exactKeys,
  normaliseTokens,
  QueryToken,
} from '../../plugins/ask-docs-backend/src/retrieval/keywordSearch';
import {
  visibleChunks,
  visibleTerms,
} from '../../plugins/ask-docs-backend/src/retrieval/visibleChunks';

/** The replaced base: postings whose chunk id is among the visible chunks, as `t`. */
function postingsOfVisibleChunks(knex: Knex, visibility: Visibility) {
  return knex.from(
    knex
      .select('vt.*')
      .from({ vt: 'ask_docs_terms' })
      .whereIn(
        'vt.chunk_id',
        visibleChunks(knex, visibility).select('c.chunk_id'),
      )
      .as('t'),
  );
}

/** Per-token document frequency over visible postings: `by` says how postings are filtered. */
export async function documentFrequencies(
  knex: Knex,
  visibility: Visibility,
  tokens: QueryToken[],
  by: 'entity' | 'chunk',
) {
  const keys = exactKeys(normaliseTokens(tokens));
  if (keys.length === 0) return [];
  // 'entity': the product's base (postings' own entity_ref). 'chunk': the replaced one, postings
  // whose chunk_id is among the visible chunks.
  const postings =
    by === 'entity'
      ? visibleTerms(knex, visibility)
      : postingsOfVisibleChunks(knex, visibility);
  const values = keys.map(() => '(?::int, ?::text, ?::text)').join(', ');
  const result = await knex.raw(
    `SELECT q.tok, count(DISTINCT vt.chunk_id)::int AS df
       FROM ? AS vt JOIN (VALUES ${values}) AS q(tok, kind, term) ON vt.kind = q.kind AND vt.term = q.term
      GROUP BY q.tok`,
    [postings, ...keys.flatMap(k => [k.tok, k.kind, k.term])],
  );
  return result.rows as Array<{ tok: number; df: number }>;
}

/** The replaced spelling-candidate query: every visible 'w' posting with a matching head, counted. */
export async function postingsScanCandidates(
  knex: Knex,
  visibility: Visibility,
  word: string,
  maxDistance: number,
) {
  const chars = Array.from(word);
  const heads = Array.from(new Set([chars[0], chars[1]]));
  const postings = postingsOfVisibleChunks(knex, visibility);
  const result = await knex.raw(
    `SELECT vt.term, count(DISTINCT vt.chunk_id)::int AS df FROM ? AS vt
      WHERE vt.kind = 'w' AND char_length(vt.term) BETWEEN ? AND ?
        AND (${heads
          .map(() => `vt.term LIKE ?`)
          .join(' OR ')} OR substr(vt.term, 2, 1) = ANY(?::text[]))
      GROUP BY vt.term ORDER BY df DESC, vt.term LIMIT 2000`,
    [
      postings,
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
