/*
 * Baseline: Postgres full-text search the way Backstage's search-backend-module-pg ranks
 * documents (a stored, weighted tsvector — heading A, body B — matched with to_tsquery and
 * ranked by ts_rank_cd), here over the same chunks our retrievers see. Evaluation only; the
 * table lives beside the knowledge index and is not part of the product schema.
 */
import { Knex } from 'knex';

export type FullTextConfig = 'english' | 'simple';

export interface FullTextVariant {
  name: string;
  config: FullTextConfig;
  /**
   * 'and-prefix': every query word must match, as itself or as a prefix (Backstage's default
   * query translation). 'or': any word may match, ranked by ts_rank_cd (a more lenient baseline).
   */
  operator: 'and-prefix' | 'or';
}

export const FULL_TEXT_VARIANTS: FullTextVariant[] = [
  {
    name: 'pg-fts (Backstage: english, AND+prefix)',
    config: 'english',
    operator: 'and-prefix',
  },
  { name: 'pg-fts-or (english, OR)', config: 'english', operator: 'or' },
  { name: 'pg-fts-or (simple, OR)', config: 'simple', operator: 'or' },
];

const TABLE = 'ask_docs_eval_fulltext';

/** (Re)creates the baseline table from ask_docs_chunks, with a GIN index per configuration. */
export async function createFullTextBaseline(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
  await knex.raw(
    `CREATE TABLE ${TABLE} AS
       SELECT chunk_id, entity_ref,
              setweight(to_tsvector('english', section_path), 'A') ||
                setweight(to_tsvector('english', text), 'B') AS body_english,
              setweight(to_tsvector('simple', section_path), 'A') ||
                setweight(to_tsvector('simple', text), 'B') AS body_simple
         FROM ask_docs_chunks`,
  );
  await knex.raw(`ALTER TABLE ${TABLE} ADD PRIMARY KEY (chunk_id)`);
  await knex.raw(
    `CREATE INDEX ${TABLE}_english ON ${TABLE} USING gin (body_english)`,
  );
  await knex.raw(
    `CREATE INDEX ${TABLE}_simple ON ${TABLE} USING gin (body_simple)`,
  );
}

/** A tsquery operand for one user word: quoted so punctuation and operators in it are inert. */
function quoteOperand(word: string): string {
  return `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The tsquery text for a question. Words are split on whitespace and stripped of tsquery
 * operator characters; the configuration's parser then drops stopwords and stems them.
 */
export function fullTextQuery(
  question: string,
  operator: FullTextVariant['operator'],
): string {
  const words = question
    .split(/\s+/)
    .map(w => w.replace(/[\0()|&:*!<>'\\]/g, '').trim())
    .filter(w => w !== '');
  if (operator === 'or') return words.map(quoteOperand).join(' | ');
  return words
    .map(w => `(${quoteOperand(w)} | ${quoteOperand(w)}:*)`)
    .join(' & ');
}

/** Chunk ids, best first. */
export async function fullTextSearch(
  knex: Knex,
  question: string,
  variant: FullTextVariant,
  limit: number,
): Promise<string[]> {
  const text = fullTextQuery(question, variant.operator);
  if (!text) return [];
  const column = variant.config === 'english' ? 'body_english' : 'body_simple';
  const result = await knex.raw(
    `SELECT f.chunk_id, ts_rank_cd(f.${column}, q.query) AS rank
       FROM ${TABLE} f, to_tsquery(?::regconfig, ?) AS q(query)
      WHERE q.query @@ f.${column}
      ORDER BY rank DESC, f.chunk_id
      LIMIT ?`,
    [variant.config, text, limit],
  );
  return result.rows.map((r: { chunk_id: string }) => r.chunk_id);
}
