import { ChunkPassage } from '@askdocs/plugin-ask-docs-common';
import { Knex } from 'knex';
import {
  ACCENTED_FORMS,
  foldDiacritics,
  LETTER_FOLDS,
} from '../language/tokenize';
import { Visibility } from '../permissions/visibility';
import {
  embeddingExpression,
  toVectorLiteral,
  VECTOR_TYPE,
} from './vectorIndex';
import {
  assertVisibility,
  ChunkSelection,
  ListScope,
  RetrievalScope,
  visibleChunkDetails,
  visibleChunks,
  visibleEntityTotals,
  visibleEmbeddings,
  visiblePostings,
} from './visibilityPredicate';

/** One dictionary key of a query token (by the token's position): kind and term. */
export interface TokenKey {
  tok: number;
  kind: 'l' | 's' | 'w';
  term: string;
}

/** One visible posting list (database/postingList.ts format) of a query token's key. */
export interface PostingListRow {
  tok: number;
  entityNo: number;
  df: number;
  postings: Buffer;
}

/** A chunk's identity in the index: its number (as posting lists hold it) and its id. */
export interface ChunkNumber {
  chunkNo: number;
  chunkId: string;
}

/** A visible chunk with its document's url (not yet anchored), as the final fetch reads it. */
export type ChunkDetails = Omit<ChunkPassage, 'url'> & {
  documentUrl: string;
  lang: string;
};

/** How a nearest-neighbour search runs: exactly, or by the HNSW index with these settings. */
export type VectorSearchMode =
  | { exact: true }
  | { exact?: false; efSearch: number; indexOnly: boolean };

/** LIKE pattern for "starts with", the key's metacharacters escaped ('!' is the escape). */
export function prefixPattern(key: string): string {
  return `${key.replace(/[!%_]/g, ch => `!${ch}`)}%`;
}

function valuesList(keys: TokenKey[]): {
  sql: string;
  bindings: Knex.RawBinding[];
} {
  return {
    sql: `(VALUES ${keys.map(() => '(?::int, ?::text, ?::text)').join(', ')})`,
    bindings: keys.flatMap(k => [k.tok, k.kind, k.term]),
  };
}

/**
 * Lists travel as base64 text: a bytea column arrives as hex, twice the list's size to send
 * and parse (at 100k chunks a query's lists are megabytes). Node skips the line breaks.
 */
const LIST_COLUMN = "encode(l.postings, 'base64') AS postings";

/**
 * Every read retrieval makes, for one asker: bound to their Visibility at construction, so no
 * read can leave it out (each starts from the visible-row bases of visibilityPredicate.ts).
 * Typed in and out; the SQL stays here. One per question (or per asker), cheap to make.
 */
export class IndexReader {
  constructor(
    private readonly knex: Knex,
    private readonly visibility: Visibility,
  ) {
    assertVisibility(visibility);
  }

  /** N (visible chunks) and their summed length, from per-entity totals (migration 0005). */
  async corpusTotals(): Promise<{ chunks: number; terms: number }> {
    const { knex, visibility } = this;
    const corpus = await knex.raw(
      `SELECT coalesce(sum(et.chunks), 0)::int8 AS n, coalesce(sum(et.terms), 0)::float8 AS terms
         FROM ? AS et`,
      [visibleEntityTotals(knex, visibility)],
    );
    return {
      chunks: Number(corpus.rows[0].n),
      terms: Number(corpus.rows[0].terms),
    };
  }

  /**
   * Per-token visible df via exact keys (tok → df), from the posting lists' counts: a key's df
   * is the sum over visible entities, a token's the largest of its keys' (its lemma, stem and
   * surface keys nearly always occur in the same chunks; the union would need the lists).
   */
  async exactDf(
    keys: TokenKey[],
    scope?: ChunkSelection,
  ): Promise<Map<number, number>> {
    const { knex, visibility } = this;
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
   * LIKE has a constant pattern and uses the dictionary's index), in one statement.
   */
  async postingLists(
    exact: TokenKey[],
    prefix: TokenKey[],
    scope?: ListScope,
  ): Promise<PostingListRow[]> {
    const { knex, visibility } = this;
    const branches: string[] = [];
    const bindings: Knex.RawBinding[] = [];
    if (exact.length > 0) {
      const values = valuesList(exact);
      branches.push(
        `SELECT q.tok, p.entity_no, p.df, p.postings FROM ${values.sql} AS q(tok, kind, term)
         JOIN ask_docs_keys AS k ON k.kind = q.kind AND k.term = q.term
         JOIN ? AS p ON p.key_id = k.key_id`,
      );
      bindings.push(
        ...values.bindings,
        visiblePostings(knex, visibility, scope),
      );
    }
    for (const key of prefix) {
      branches.push(
        `SELECT ?::int AS tok, p.entity_no, p.df, p.postings FROM ask_docs_keys AS k
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
    // A token's keys often have the same list in an entity (a lemma and its stem occur in
    // the same chunks: a third of the bytes at 100k chunks); each such list travels once.
    const result = await knex.raw(
      `SELECT l.tok, l.entity_no, max(l.df) AS df, ${LIST_COLUMN}
         FROM (${branches.join(' UNION ALL ')}) AS l
        GROUP BY l.tok, l.entity_no, l.postings`,
      bindings,
    );
    return result.rows.map(
      (r: {
        tok: number;
        entity_no: number;
        df: number;
        postings: string;
      }) => ({
        tok: Number(r.tok),
        entityNo: Number(r.entity_no),
        df: Number(r.df),
        postings: Buffer.from(r.postings, 'base64'),
      }),
    );
  }

  /** Ids of the visible ones of these chunk numbers (lists only narrow; rows decide). */
  async chunkIds(
    chunkNos: number[],
    scope?: ChunkSelection,
  ): Promise<ChunkNumber[]> {
    const rows: Array<{ chunk_no: number; chunk_id: string }> =
      await visibleChunks(this.knex, this.visibility, scope)
        .whereRaw('c.chunk_no = ANY(?::int[])', [chunkNos])
        .select('c.chunk_no', 'c.chunk_id');
    return rows.map(r => ({ chunkNo: r.chunk_no, chunkId: r.chunk_id }));
  }

  /** The visible ones of these chunks, with their numbers and their entity's number. */
  async chunkNumbers(
    selection: ChunkSelection & { chunkIds: string[] },
  ): Promise<Array<ChunkNumber & { entityNo: number }>> {
    const rows: Array<{
      chunk_no: number;
      chunk_id: string;
      entity_no: number;
    }> = await visibleChunks(this.knex, this.visibility, selection)
      .join({ e: 'ask_docs_entities' }, 'e.entity_ref', 'c.entity_ref')
      .select('c.chunk_no', 'c.chunk_id', 'e.entity_no');
    return rows.map(r => ({
      chunkNo: r.chunk_no,
      chunkId: r.chunk_id,
      entityNo: Number(r.entity_no),
    }));
  }

  /** The visible ones of these chunks, with their document's url (any order). */
  async chunkDetails(
    chunkIds: string[],
    scope?: RetrievalScope,
  ): Promise<ChunkDetails[]> {
    const rows: Array<Record<string, string>> = await visibleChunkDetails(
      this.knex,
      this.visibility,
      { ...scope, chunkIds },
    ).select(
      'c.chunk_id',
      'c.document_id',
      'c.entity_ref',
      'c.title',
      'c.section_path',
      'c.anchor',
      'c.document_url',
      'c.text',
      'c.revision',
      'c.content_hash',
      'c.lang',
    );
    return rows.map(row => ({
      chunkId: row.chunk_id,
      documentId: row.document_id,
      entityRef: row.entity_ref,
      title: row.title,
      sectionPath: row.section_path,
      anchor: row.anchor,
      documentUrl: row.document_url,
      text: row.text,
      revision: row.revision,
      contentHash: row.content_hash,
      lang: row.lang,
    }));
  }

  /** Tokens (by position) with at least one key that has a visible list. */
  async tokensWithVisibleKeys(
    keys: TokenKey[],
    scope?: ListScope,
  ): Promise<Set<number>> {
    const { knex, visibility } = this;
    const values = keys.map(() => '(?::int, ?::text, ?::text)').join(', ');
    const matched = await knex.raw(
      `SELECT DISTINCT q.tok FROM (VALUES ${values}) AS q(tok, kind, term)
       JOIN ask_docs_keys AS k ON k.kind = q.kind AND k.term = q.term
       JOIN ? AS p ON p.key_id = k.key_id`,
      [
        ...keys.flatMap(k => [k.tok, k.kind, k.term]),
        visiblePostings(knex, visibility, scope),
      ],
    );
    return new Set<number>(
      matched.rows.map((r: { tok: number }) => Number(r.tok)),
    );
  }

  /**
   * Surface words that may be `maxEdits` spelling edits or fewer from `word` (lower case and
   * NFC, as `tokenize` makes the dictionary's words), both compared without diacritics (typo.ts),
   * with a visible list: first or second letter among the word's first two or their accented
   * forms (an edit there leaves one of them in place), length within `maxEdits` of the word's.
   * Letter and length are the keys of two indexes of the key dictionary (migration 0006), probed
   * once per form. Past `limit`, the lengths closest to the word's are kept.
   *
   * Before the visible-list probe (most of the cost), two lower bounds of the edit distance
   * drop words out of reach: a candidate's letters absent from the word each need an insertion
   * or substitution, the word's letters absent from the candidate a deletion or substitution
   * (a transposition brings in no letter). The database folds the letters LETTER_FOLDS lists
   * (Latin-1 and Latin Extended-A); other accented letters count as foreign there, which can
   * only leave a candidate out.
   */
  async spellingCandidates(
    options: {
      word: string;
      maxEdits: number;
      limit: number;
    },
    scope?: ListScope,
  ): Promise<string[]> {
    const { knex, visibility } = this;
    const { maxEdits } = options;
    // Compared without diacritics, as typo.ts compares: "vthlazovani" is one slip from
    // "vyhlazování".
    const word = foldDiacritics(options.word);
    const chars = Array.from(word);
    const length = chars.length;
    const heads = Array.from(
      new Set(
        chars.slice(0, 2).flatMap(c => [c, ...(ACCENTED_FORMS.get(c) ?? [])]),
      ),
    );
    const letters = Array.from(new Set(word)).join('');
    const folded = `translate(k.term, '${LETTER_FOLDS.from}', '${LETTER_FOLDS.to}')`;
    const result = await knex.raw(
      `SELECT k.term FROM ask_docs_keys AS k
          WHERE k.kind = 'w'
            AND (substr(k.term, 1, 1) = ANY(?::text[]) OR substr(k.term, 2, 1) = ANY(?::text[]))
            AND char_length(k.term) BETWEEN ? AND ?
            AND char_length(translate(${folded}, ?, '')) <= ?
            AND char_length(translate(?, ${folded}, '')) <= ?
            AND EXISTS (SELECT 1 FROM ? AS p WHERE p.key_id = k.key_id)
          ORDER BY abs(char_length(k.term) - ?), k.term LIMIT ?`,
      [
        heads,
        heads,
        length - maxEdits,
        length + maxEdits,
        letters,
        maxEdits,
        word,
        maxEdits,
        visiblePostings(knex, visibility, scope),
        length,
        options.limit,
      ],
    );
    return (result.rows as Array<{ term: string }>).map(r => r.term);
  }

  /** Visible chunks containing each of these surface words (absent: none). */
  async wordDf(
    terms: string[],
    scope?: ListScope,
  ): Promise<Map<string, number>> {
    if (terms.length === 0) return new Map();
    const { knex, visibility } = this;
    const result = await knex.raw(
      `SELECT k.term, sum(p.df)::int AS df FROM ask_docs_keys AS k
         JOIN ? AS p ON p.key_id = k.key_id
        WHERE k.kind = 'w' AND k.term = ANY(?::text[])
        GROUP BY k.term`,
      [visiblePostings(knex, visibility, scope), terms],
    );
    const rows = result.rows as Array<{ term: string; df: number }>;
    return new Map(rows.map(row => [row.term, Number(row.df)]));
  }

  /** Which of `words` are surface words of the asker's visible chunks. */
  async visibleWords(words: string[]): Promise<Set<string>> {
    const { knex, visibility } = this;
    if (words.length === 0) return new Set();
    const found = await knex.raw(
      `SELECT DISTINCT k.term FROM ask_docs_keys AS k JOIN ? AS p ON p.key_id = k.key_id
      WHERE k.kind = 'w' AND k.term = ANY(?::text[])`,
      [visiblePostings(knex, visibility), words],
    );
    return new Set(found.rows.map((r: { term: string }) => r.term));
  }

  /**
   * The k nearest visible vectors of one model (cosine distance, unsorted within ties). An
   * exact search reads no setting. An index search sets its HNSW settings for its own
   * transaction: once the server's settings are known, in the statement itself (one round
   * trip; see `searchSettingsGate`), else in an explicit transaction.
   */
  async nearestVectors(options: {
    modelId: string;
    queryVector: number[];
    k: number;
    selection?: ChunkSelection;
    mode: VectorSearchMode;
  }): Promise<Array<{ chunkId: string; distance: number }>> {
    const { knex, visibility } = this;
    const { mode } = options;
    const search = (db: Knex) =>
      vectorQuery(db, visibility, { ...options, exact: mode.exact === true });
    const iterative = iterativeScans.get(knex);
    let rows: Array<{ chunk_id: string; distance: number }>;
    if (mode.exact) {
      rows = await search(knex);
    } else if (iterative !== undefined && !mode.indexOnly) {
      const gate = searchSettingsGate(searchLocals(mode, iterative));
      try {
        rows = await search(knex).whereRaw(gate.sql, gate.bindings);
      } catch (error) {
        iterativeScans.delete(knex); // the server changed (e.g. a failover): probe again
        throw error;
      }
    } else {
      rows = await knex.transaction(async trx => {
        await setSearchLocals(knex, trx, mode);
        return search(trx);
      });
    }
    return rows.map(r => ({
      chunkId: r.chunk_id,
      distance: Number(r.distance),
    }));
  }
}

/** Opens an IndexReader per asker; what services hold instead of a database client. */
export class KnowledgeIndex {
  constructor(private readonly knex: Knex) {}

  reader(visibility: Visibility): IndexReader {
    return new IndexReader(this.knex, visibility);
  }
}

/**
 * The kNN query itself (exposed so tests can EXPLAIN it): ORDER BY the same typed-cast
 * expression as the partial HNSW index, over the visible embeddings only.
 */
export function vectorQuery(
  knex: Knex,
  visibility: Visibility,
  options: {
    modelId: string;
    queryVector: number[];
    k: number;
    selection?: ChunkSelection;
    /** Order by an expression the HNSW index does not match, so no graph walk is possible. */
    exact?: boolean;
  },
): Knex.QueryBuilder {
  const dimension = options.queryVector.length;
  const literal = toVectorLiteral(options.queryVector);
  const distance = `${embeddingExpression(
    'em',
    dimension,
  )} <=> ?::${VECTOR_TYPE}(${dimension})`;
  return (
    visibleEmbeddings(knex, visibility, {
      modelId: options.modelId,
      dimension,
      selection: options.selection,
    })
      .select('em.chunk_id', knex.raw(`${distance} AS distance`, [literal]))
      // Exact: ties (the same boilerplate in several entities) cut by chunk id, so the set a replay
      // retrieves is the set recorded. The index walk takes ORDER BY distance alone.
      .orderByRaw(options.exact ? `(${distance}) + 0, em.chunk_id` : distance, [
        literal,
      ])
      .limit(options.k)
  );
}

/** SET LOCAL in a savepoint: an older pgvector without the setting does not abort the search. */
async function trySetLocal(
  trx: Knex.Transaction,
  statement: string,
): Promise<boolean> {
  try {
    await trx.transaction(async sp => {
      await sp.raw(statement);
    });
    return true;
  } catch {
    // Setting unknown on this server: search still works, with plain (non-iterative) scans.
    return false;
  }
}

/**
 * Whether the server has iterative index scans (pgvector >= 0.8), learnt on a database's first
 * search: later searches make their settings in the search statement itself (no transaction,
 * savepoint or separate statement).
 */
const iterativeScans = new WeakMap<Knex, boolean>();

/** The settings an index search makes, as (name, value) pairs. */
function searchLocals(
  settings: { efSearch: number; indexOnly: boolean },
  iterative: boolean,
): Array<[string, string]> {
  const locals: Array<[string, string]> = [
    ['hnsw.ef_search', String(settings.efSearch)],
  ];
  if (iterative) locals.push(['hnsw.iterative_scan', 'relaxed_order']);
  if (settings.indexOnly) locals.push(['enable_seqscan', 'off']);
  return locals;
}

/**
 * A WHERE clause that makes the search's settings local to the statement's own transaction
 * before the scan reads them. It references no column, so PostgreSQL evaluates it once (an
 * InitPlan as the one-time filter of a Result above the scan) before the first row is asked
 * of the scan, where pgvector reads `hnsw.*`. The planner has run by then: its HNSW cost
 * estimate sees the session's `hnsw.ef_search`, and planner settings such as
 * `enable_seqscan` cannot be made this way. Used on the root client only (in a caller's
 * transaction the settings would last to its end). A test checks that they reach the scan.
 */
export function searchSettingsGate(locals: Array<[string, string]>): {
  sql: string;
  bindings: string[];
} {
  return {
    sql: `(SELECT ${locals
      .map(() => 'set_config(?, ?, true) IS NOT NULL')
      .join(' AND ')})`,
    bindings: locals.flat(),
  };
}

/** The HNSW settings of one search, local to its transaction. */
async function setSearchLocals(
  knex: Knex,
  trx: Knex.Transaction,
  settings: { efSearch: number; indexOnly: boolean },
): Promise<void> {
  let iterative = iterativeScans.get(knex);
  if (iterative === undefined) {
    iterative = await trySetLocal(
      trx,
      'SET LOCAL hnsw.iterative_scan = relaxed_order',
    );
    iterativeScans.set(knex, iterative);
  }
  const locals = searchLocals(settings, iterative);
  try {
    await trx.raw(
      `SELECT ${locals.map(() => 'set_config(?, ?, true)').join(', ')}`,
      locals.flat(),
    );
  } catch (error) {
    iterativeScans.delete(knex); // the server changed (e.g. a failover): probe again next time
    throw error;
  }
}
