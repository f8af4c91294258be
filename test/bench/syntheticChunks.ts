import { seededRandom } from '../../plugins/ask-docs-backend/src/retrieval/testUtils/seed';
/*
 * Synthetic knowledge-index rows for scale benchmarks: chunks made of real sentences drawn from
 * an ingested corpus, embedded and analysed exactly as the Ingester would, bulk-inserted with
 * unnest() INSERTs and indexed by the store's own posting-list writer. Chunks are spread over
 * `entities` entities (10 per document, documents round-robin over entities), each owned by its
 * own group, so one group sees 1/entities of them. The same keys also go, as one row per
 * (chunk, key), into the bench-only table of the replaced layout (replacedQueries.ts).
 */
import crypto from 'crypto';
import { Knex } from 'knex';
import { chunkColumns } from '../../plugins/ask-docs-backend/src/database/chunkColumns';
import { entityColumns } from '../../plugins/ask-docs-backend/src/database/entityColumns';
import { HashingEmbedder } from '../../plugins/ask-docs-backend/src/embedding';
import {
  prepareChunkKeys,
  rewritePostings,
} from '../../plugins/ask-docs-backend/src/database/keywordIndex';
import type { TermCount } from '../../plugins/ask-docs-backend/src/language/types';
import { ROW_POSTINGS } from './replacedQueries';
import { splitSentences } from '../../plugins/ask-docs-backend/src/ingestion/parsing';
import {
  Analyzers,
  analyzeText,
} from '../../plugins/ask-docs-backend/src/language';

export const BENCH_ENTITY_PREFIX = 'bench';
export const benchEntityRef = (i: number) =>
  `component:default/${BENCH_ENTITY_PREFIX}-${i}`;
export const benchOwner = (i: number) =>
  `group:default/${BENCH_ENTITY_PREFIX}-owner-${i}`;
const CHUNKS_PER_DOCUMENT = 10;

/**
 * Column types for unnest(); the names are chunkColumns()' keys (the store's own mapping), and
 * the key list the store writes with an analysed chunk.
 */
const CHUNK_COLUMNS: Array<
  [keyof ReturnType<typeof chunkColumns> | 'key_ids', string]
> = [
  ['chunk_id', 'text'],
  ['document_id', 'text'],
  ['entity_ref', 'text'],
  ['ordinal', 'int'],
  ['title', 'text'],
  ['section_path', 'text'],
  ['anchor', 'text'],
  ['char_start', 'int'],
  ['char_end', 'int'],
  ['text', 'text'],
  ['content_hash', 'text'],
  ['revision', 'text'],
  ['lang', 'text'],
  ['term_count', 'int'],
  ['key_ids', 'bytea'],
];
const EMBEDDING_COLUMNS: Array<[string, string]> = [
  ['chunk_id', 'text'],
  ['entity_ref', 'text'],
  ['model_id', 'text'],
  ['content_hash', 'text'],
  ['dimension', 'int'],
  ['embedding', 'halfvec'],
];
/** Columns of the replaced layout's row postings (bench-only table). */
const TERM_COLUMNS: Array<[string, string]> = [
  ['chunk_id', 'text'],
  ['entity_ref', 'text'],
  ['kind', 'text'],
  ['term', 'text'],
  ['tf', 'int'],
];

// The same seed builds the same corpus.
export { seededRandom } from '../../plugins/ask-docs-backend/src/retrieval/testUtils/seed';

export interface SentencePool {
  sentences: string[];
  /** Real chunk lengths, sampled so synthetic chunks are as long as real ones. */
  lengths: number[];
}

/** Sentences and chunk lengths of the chunks already in the index (e.g. an ingested manual). */
export async function sentencePool(knex: Knex): Promise<SentencePool> {
  const rows: Array<{ text: string }> = await knex('ask_docs_chunks').select(
    'text',
  );
  const sentences: string[] = [];
  for (const r of rows) {
    for (const span of splitSentences(r.text)) {
      const s = r.text.slice(span.start, span.end).trim();
      if (s.length >= 20) sentences.push(s);
    }
  }
  if (sentences.length === 0)
    throw new Error('no sentences to build synthetic chunks from');
  return { sentences, lengths: rows.map(r => r.text.length) };
}

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** Inserts the bench entities (idempotent). */
export async function insertBenchEntities(
  knex: Knex,
  entities: number,
): Promise<void> {
  // Through the store's row mapping, so the folded key columns visibility compares are filled.
  const rows = Array.from({ length: entities }, (_, i) =>
    entityColumns({
      entityRef: benchEntityRef(i),
      kind: 'component',
      namespace: 'default',
      name: `${BENCH_ENTITY_PREFIX}-${i}`,
      title: `Bench ${i}`,
      owners: [benchOwner(i)],
      tags: [],
      labels: {},
      annotations: {},
      spec: {},
      etag: 'e1',
    }),
  );
  await knex('ask_docs_entities')
    .insert(rows)
    .onConflict('entity_ref')
    .ignore();
}

/**
 * INSERT ... SELECT FROM unnest(arrays): one bind parameter per column instead of per value,
 * which is several times faster than multi-row VALUES for large batches.
 */
async function insertColumns(
  trx: Knex.Transaction,
  table: string,
  columns: Array<[string, string]>,
  rows: Array<Record<string, unknown>>,
) {
  const size = 20_000;
  for (let i = 0; i < rows.length; i += size) {
    const slice = rows.slice(i, i + size);
    await trx.raw(
      `INSERT INTO ${table} (${columns
        .map(([c]) => c)
        .join(', ')}) SELECT * FROM unnest(${columns
        .map(([, t]) => `?::${t}[]`)
        .join(', ')})`,
      columns.map(([c]) => slice.map(r => r[c]) as any),
    );
  }
}

/** Chunk numbers `from` .. `to`-1 grouped by entity: documents of 10 chunks, round-robin. */
function chunksByEntity(from: number, to: number, entities: number) {
  const groups = new Map<number, number[]>();
  for (let j = from; j < to; j++) {
    const e = Math.floor(j / CHUNKS_PER_DOCUMENT) % entities;
    const list = groups.get(e) ?? [];
    list.push(j);
    groups.set(e, list);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * Adds synthetic chunks number `from` .. `to`-1 (ids are stable, so a larger corpus extends a
 * smaller one), entity by entity, as the Ingester writes them. Returns counts of what was
 * written, and the time spent generating vs writing.
 */
export async function addSyntheticChunks(options: {
  knex: Knex;
  pool: SentencePool;
  embedder: HashingEmbedder;
  analyzers: Analyzers;
  entities: number;
  from: number;
  to: number;
  seed?: number;
  /** Also fill the replaced layout's rows (bench_row_postings); default true. */
  rowPostings?: boolean;
  onProgress?: (done: number) => void;
}): Promise<{
  chunks: number;
  terms: number;
  generateMs: number;
  writeMs: number;
}> {
  const { knex, pool, embedder, analyzers, entities } = options;
  let terms = 0;
  let done = 0;
  let generateMs = 0;
  let writeMs = 0;
  for (const [e, numbers] of chunksByEntity(
    options.from,
    options.to,
    entities,
  )) {
    const t0 = performance.now();
    const entityRef = benchEntityRef(e);
    const documents = new Map<string, object>();
    const chunks: Array<Record<string, unknown>> = [];
    const embeddings: Array<Record<string, unknown>> = [];
    const keyed: Array<{ chunkId: string; terms: TermCount[] }> = [];
    const termRows: Array<Record<string, unknown>> = [];
    for (const j of numbers) {
      // Per-chunk seed: chunk j has the same text however the corpus was built up.
      const random = seededRandom((options.seed ?? 1) * 1_000_003 + j);
      const target = pool.lengths[Math.floor(random() * pool.lengths.length)];
      let text = '';
      while (text.length < target)
        text += `${text ? ' ' : ''}${
          pool.sentences[Math.floor(random() * pool.sentences.length)]
        }`;
      const d = Math.floor(j / CHUNKS_PER_DOCUMENT);
      // Ids as wide as the product's (32 hex characters): they are in every index.
      const documentId = sha(`bench-doc-${d}`).slice(0, 32);
      const title = `Synthetic page ${d}`;
      const sectionPath = `${title} › ${text
        .split(/\s+/)
        .slice(0, 4)
        .join(' ')}`;
      if (!documents.has(documentId)) {
        documents.set(documentId, {
          document_id: documentId,
          entity_ref: entityRef,
          source_kind: 'techdocs',
          page_path: `synthetic/${d}/index.html`,
          title,
          url: `/docs/default/component/${entityRef
            .split('/')
            .pop()}/synthetic/${d}/`,
          lang: 'en',
          revision: 'r1',
          content_hash: sha(documentId),
          text_length: 0,
        });
      }
      const chunkId = sha(`bench-chunk-${j}`).slice(0, 32);
      const contentHash = sha(`${sectionPath}\n${text}`);
      const analysis = analyzeText(`${sectionPath}\n${text}`, 'en', analyzers);
      chunks.push(
        chunkColumns({
          chunkId,
          documentId,
          entityRef,
          ordinal: j % CHUNKS_PER_DOCUMENT,
          title,
          sectionPath,
          anchor: '',
          charStart: 0,
          charEnd: text.length,
          text,
          contentHash,
          revision: 'r1',
          lang: 'en',
          termCount: analysis.tokenCount,
        }),
      );
      embeddings.push({
        chunk_id: chunkId,
        entity_ref: entityRef,
        model_id: embedder.modelId,
        content_hash: contentHash,
        dimension: embedder.dimension,
        embedding: `[${embedder
          .embedSync(`${sectionPath}\n${text}`)
          .join(',')}]`,
      });
      keyed.push({ chunkId, terms: analysis.terms });
      terms += analysis.terms.length;
      if (options.rowPostings === false) continue;
      for (const t of analysis.terms) {
        termRows.push({
          chunk_id: chunkId,
          entity_ref: entityRef,
          kind: t.kind,
          term: t.term,
          tf: t.tf,
        });
      }
    }
    const t1 = performance.now();
    await knex.transaction(async trx => {
      await trx('ask_docs_documents')
        .insert([...documents.values()])
        .onConflict('document_id')
        .ignore();
      // As the store writes them: the key lists with the chunk rows, then the posting lists.
      const prepared = await prepareChunkKeys(trx, keyed);
      await insertColumns(
        trx,
        'ask_docs_chunks',
        CHUNK_COLUMNS,
        chunks.map(c => ({
          ...c,
          key_ids: prepared.get(c.chunk_id as string)!.list,
        })),
      );
      await insertColumns(
        trx,
        'ask_docs_embeddings',
        EMBEDDING_COLUMNS,
        embeddings,
      );
      await rewritePostings(
        trx,
        keyed.map(k => ({
          chunkId: k.chunkId,
          previous: [],
          next: prepared.get(k.chunkId)!.tfs,
        })),
      );
      if (termRows.length > 0)
        await insertColumns(trx, ROW_POSTINGS, TERM_COLUMNS, termRows);
    });
    const t2 = performance.now();
    generateMs += t1 - t0;
    writeMs += t2 - t1;
    done += numbers.length;
    options.onProgress?.(done);
  }
  return { chunks: options.to - options.from, terms, generateMs, writeMs };
}

/**
 * Runs a bulk load with the row postings' indexes and constraints dropped, then recreates them
 * from their own definitions (read from the catalog). Building a btree once is several times
 * faster than maintaining them row by row; the product's lists are written as the store does.
 */
export async function withoutRowPostingIndexes<T>(
  knex: Knex,
  load: () => Promise<T>,
): Promise<{ result: T; rebuildSeconds: number }> {
  const constraints: Array<{ conname: string; def: string; contype: string }> =
    (
      await knex.raw(
        `SELECT conname, contype, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = '${ROW_POSTINGS}'::regclass AND contype IN ('p', 'f')
        ORDER BY contype DESC`,
      )
    ).rows;
  const indexes: Array<{ indexname: string; indexdef: string }> = (
    await knex.raw(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = '${ROW_POSTINGS}'
          AND indexname NOT IN (
            SELECT conname FROM pg_constraint WHERE conrelid = '${ROW_POSTINGS}'::regclass)`,
    )
  ).rows;
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  for (const i of indexes) await knex.raw(`DROP INDEX ${quote(i.indexname)}`);
  for (const c of [...constraints].reverse())
    await knex.raw(
      `ALTER TABLE ${ROW_POSTINGS} DROP CONSTRAINT ${quote(c.conname)}`,
    );
  const result = await load();
  const t0 = performance.now();
  await knex.transaction(async trx => {
    await trx.raw(`SET LOCAL maintenance_work_mem = '256MB'`);
    // Primary key first (foreign keys are ordered after it above), then the plain indexes.
    for (const c of constraints)
      await trx.raw(
        `ALTER TABLE ${ROW_POSTINGS} ADD CONSTRAINT ${quote(c.conname)} ${
          c.def
        }`,
      );
    for (const i of indexes) await trx.raw(i.indexdef);
  });
  return { result, rebuildSeconds: (performance.now() - t0) / 1000 };
}
