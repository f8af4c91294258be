import { createHash } from 'crypto';
import { Knex } from 'knex';
import { IndexedChunk } from '@askdocs/plugin-ask-docs-common';
import { chunkColumns } from '../../database/chunkColumns';
import { entityColumns } from '../../database/entityColumns';
import { ChunkKeysChange, rewriteChunkKeys } from '../../database/keywordIndex';
import type { QueryToken } from '../keywordSearch';

/** Test fixtures: a small knowledge index written straight into the tables. */

export interface SeedEntity {
  entityRef: string;
  owners?: string[];
  tags?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  spec?: Record<string, unknown>;
  title?: string;
}

/** A chunk fixture: the text, with the id, section path and anchor optional. */
export interface SeedChunk
  extends Pick<IndexedChunk, 'text'>,
    Partial<Pick<IndexedChunk, 'chunkId' | 'sectionPath' | 'anchor'>> {
  /** Postings by kind; defaults: every lower-cased word of the text as 'l', 's' and 'w'. */
  terms?: Partial<Record<'l' | 's' | 'w', string[]>>;
  /** Vectors by model id. */
  embeddings?: Record<string, number[]>;
}

export interface SeedDocument {
  documentId?: string;
  entityRef: string;
  title: string;
  url?: string;
  chunks: SeedChunk[];
}

/** Query tokens whose lemma and stem are the word itself, like the seed's default keys. */
export const queryTokens = (...ws: string[]): QueryToken[] =>
  ws.map(w => ({ token: w, lemmas: [w], stems: [w] }));

export const words = (text: string) =>
  text.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? [];

function parseRef(ref: string) {
  const match = /^([^:]+):([^/]+)\/(.+)$/.exec(ref);
  if (!match) throw new Error(`bad entity ref ${ref}`);
  return { kind: match[1], namespace: match[2], name: match[3] };
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export async function clearIndex(knex: Knex): Promise<void> {
  await knex('ask_docs_entities').delete(); // cascades to documents, chunks, postings, embeddings
  await knex('ask_docs_chunks').delete();
}

/** Each entity with one document of one chunk ("notes of <ref>"), for visibility tests. */
export function seedNotesPerEntity(
  knex: Knex,
  entities: SeedEntity[],
): Promise<Record<string, string[]>> {
  return seedIndex(knex, {
    entities,
    documents: entities.map(e => ({
      entityRef: e.entityRef,
      title: e.entityRef,
      chunks: [{ text: `notes of ${e.entityRef}` }],
    })),
  });
}

/**
 * Inserts entities, documents, chunks, postings and embeddings; returns the chunk ids per document.
 */
export async function seedIndex(
  knex: Knex,
  fixture: { entities: SeedEntity[]; documents: SeedDocument[] },
): Promise<Record<string, string[]>> {
  const chunkIds: Record<string, string[]> = {};
  const entities = fixture.entities.map(e => {
    const { kind, namespace, name } = parseRef(e.entityRef);
    // Through the store's own row mapping, so the folded key columns are filled as in production.
    return entityColumns({
      entityRef: e.entityRef,
      kind,
      namespace,
      name,
      title: e.title ?? name,
      owners: e.owners ?? [],
      tags: e.tags ?? [],
      labels: e.labels ?? {},
      annotations: e.annotations ?? {},
      spec: e.spec ?? {},
      etag: sha(e.entityRef).slice(0, 8),
    });
  });
  const documents: Array<Record<string, unknown>> = [];
  const chunks: Array<Record<string, unknown>> = [];
  const keyed: ChunkKeysChange[] = [];
  const embeddings: Array<Record<string, unknown>> = [];
  for (const d of fixture.documents) {
    const documentId = d.documentId ?? `doc:${d.entityRef}:${d.title}`;
    const fullText = d.chunks.map(c => c.text).join('\n');
    documents.push({
      document_id: documentId,
      entity_ref: d.entityRef,
      source_kind: 'techdocs',
      page_path: d.title.toLowerCase().replace(/\W+/g, '-'),
      title: d.title,
      url: d.url ?? `/docs/${d.entityRef}/${encodeURIComponent(d.title)}`,
      lang: 'en',
      revision: 'rev-1',
      content_hash: sha(fullText),
      text_length: fullText.length,
    });
    chunkIds[documentId] = [];
    let offset = 0;
    for (const [ordinal, c] of d.chunks.entries()) {
      const chunkId = c.chunkId ?? sha(`${documentId}#${ordinal}`).slice(0, 24);
      chunkIds[documentId].push(chunkId);
      const tokens = words(c.text);
      chunks.push(
        chunkColumns({
          chunkId,
          documentId,
          entityRef: d.entityRef,
          ordinal,
          title: d.title,
          sectionPath: c.sectionPath ?? d.title,
          anchor: c.anchor ?? '',
          charStart: offset,
          charEnd: offset + c.text.length,
          text: c.text,
          contentHash: sha(c.text),
          revision: 'rev-1',
          lang: 'en',
          termCount: tokens.length,
        }),
      );
      offset += c.text.length + 1;
      const change: ChunkKeysChange = { chunkId, terms: [] };
      for (const kind of ['l', 's', 'w'] as const) {
        const list = c.terms?.[kind] ?? (c.terms ? [] : tokens);
        const tf = new Map<string, number>();
        for (const term of list) tf.set(term, (tf.get(term) ?? 0) + 1);
        for (const [term, count] of tf)
          change.terms!.push({ kind, term, tf: count });
      }
      keyed.push(change);
      for (const [modelId, vector] of Object.entries(c.embeddings ?? {})) {
        embeddings.push({
          chunk_id: chunkId,
          entity_ref: d.entityRef,
          model_id: modelId,
          content_hash: sha(c.text),
          dimension: vector.length,
          embedding: `[${vector.join(',')}]`,
        });
      }
    }
  }
  await knex.transaction(async trx => {
    for (const [table, rows] of [
      ['ask_docs_entities', entities],
      ['ask_docs_documents', documents],
      ['ask_docs_chunks', chunks],
      ['ask_docs_embeddings', embeddings],
    ] as const) {
      if (rows.length > 0) await trx.batchInsert(table, rows as any[], 500);
    }
    await rewriteChunkKeys(trx, keyed);
  });
  return chunkIds;
}

export { seededRandom } from '../../testUtils/seededRandom';

export function randomUnitVector(
  random: () => number,
  dimension: number,
): number[] {
  const v = Array.from({ length: dimension }, () => random() * 2 - 1);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map(x => Number((x / norm).toFixed(6)));
}
