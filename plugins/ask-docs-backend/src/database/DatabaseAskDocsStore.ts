import { Knex } from 'knex';
import {
  AnswerFeedback,
  isAnswerId,
  ModelFailureReason,
} from '@askdocs/plugin-ask-docs-common';
import { Visibility } from '../permissions';
import { toVectorLiteral, vectorIndexName } from './vectorIndex';
import {
  ABANDONED_STATUS,
  AnswerWrite,
  AskDocsStore,
  ChunkWrite,
  DocumentRow,
  EntityRow,
  RunProgress,
  RunStart,
  RunTakenOverError,
  PageWrite,
  ReplacedDocument,
  StoredAnswer,
  StoredDocumentState,
  VisibilitySyncState,
} from './AskDocsStore';
import { chunkColumns } from './chunkColumns';
import { entityColumns } from './entityColumns';
import {
  prepareChunkKeys,
  rewriteChunkKeys,
  rewritePostings,
} from './keywordIndex';
import { decodeKeyIds } from './postingList';
import {
  applyVisibility,
  FRESH_VISIBILITY_ATTRIBUTES_SQL,
} from './visibilityPredicate';

/** Chunk and vector rows per INSERT (a vector literal of 384 dimensions is ~3 KB of SQL). */
const CHUNK_INSERT_BATCH = 200;
/**
 * Entity rows no listing later than `asOf` wrote: a listing that started earlier must not undo
 * (or delete) what a later one wrote. NOT_NEWER_SQL is the same rule for an upsert's conflict.
 */
function listedNoLaterThan(asOf: Date | Knex.Raw) {
  return (q: Knex.QueryBuilder) =>
    q.whereNull('attributes_at').orWhere('attributes_at', '<=', asOf);
}

/** Model failures in which the model generated nothing (llm.ts classifyModelError). */
const UNSERVED_MODEL_CALLS: ModelFailureReason[] = [
  'rejected',
  'context_too_large',
  'rate_limited',
  'server_error',
  'connection',
  'circuit_open',
];

/**
 * Whether the catalog lists another entity under a stored row's ref: another uid and other
 * visibility attributes (another owner, say). A provider that drops and adds an entity again
 * gives it a new uid with the same attributes: the same entity, kept with its content. A row
 * without a uid (written before migration 0012) is compared with nothing.
 */
function isReplacement(
  row:
    | { entity_uid: string | null; attributes_hash: string | null }
    | undefined,
  uid: string | undefined,
  attributesHash: string,
): boolean {
  return (
    !!row &&
    !!uid &&
    !!row.entity_uid &&
    row.entity_uid !== uid &&
    row.attributes_hash !== attributesHash
  );
}

const NOT_NEWER_SQL =
  'ask_docs_entities.attributes_at IS NULL ' +
  'OR ask_docs_entities.attributes_at <= excluded.attributes_at';

export class DatabaseAskDocsStore implements AskDocsStore {
  constructor(private readonly db: Knex) {}

  async upsertEntity(
    e: EntityRow,
    options: { asOf?: Date } = {},
  ): Promise<void> {
    const row = {
      ...entityColumns(e),
      attributes_at: options.asOf ?? this.db.fn.now(),
      deleted_at: null,
      updated_at: this.db.fn.now(),
    };
    // An existing row is updated, not upserted: INSERT ... ON CONFLICT would take an entity_no
    // (int4) from the identity on every run for every entity.
    const updated = await this.db('ask_docs_entities')
      .where('entity_ref', e.entityRef)
      .where(listedNoLaterThan(row.attributes_at))
      .update(row);
    if (updated > 0) return;
    // New, written by a newer listing, or inserted by another writer meanwhile: the guarded
    // upsert decides (a number is taken only here).
    await this.db('ask_docs_entities')
      .insert(row)
      .onConflict('entity_ref')
      .merge()
      .whereRaw(NOT_NEWER_SQL);
  }

  async databaseNow(): Promise<Date> {
    const { rows } = await this.db.raw('SELECT now() AS now');
    return new Date(rows[0].now);
  }

  async syncEntityAttributes(
    entities: EntityRow[],
    asOf: Date,
  ): Promise<number> {
    if (entities.length === 0) return 0;
    const stored = await this.db('ask_docs_entities')
      .whereIn(
        'entity_ref',
        entities.map(e => e.entityRef),
      )
      .select('entity_ref', 'attributes_hash', 'deleted_at', 'entity_uid');
    const byRef = new Map(stored.map(r => [r.entity_ref, r]));
    let changed = 0;
    for (const e of entities) {
      const row = byRef.get(e.entityRef);
      if (!row) continue; // not indexed (yet): ingestion adds it with its documents
      // The uid is ingestion's to write, with the documents it belongs to.
      const { etag: _etag, entity_uid: _uid, ...columns } = entityColumns(e);
      if (isReplacement(row, e.uid, columns.attributes_hash)) {
        // Another entity under the same ref: the old one's content stays hidden, under its own
        // attributes, until an ingestion run deletes it (the sync writes no content).
        changed += await this.db('ask_docs_entities')
          .where('entity_ref', e.entityRef)
          .whereNull('deleted_at')
          .where(listedNoLaterThan(asOf))
          .update({ deleted_at: asOf, updated_at: this.db.fn.now() });
        continue;
      }
      if (
        row.attributes_hash === columns.attributes_hash &&
        row.deleted_at === null
      )
        continue;
      changed += await this.db('ask_docs_entities')
        .where('entity_ref', e.entityRef)
        .where(listedNoLaterThan(asOf))
        .update({
          ...columns,
          attributes_at: asOf,
          deleted_at: null,
          updated_at: this.db.fn.now(),
        });
    }
    return changed;
  }

  async hideEntitiesNotListed(
    listedRefs: string[],
    asOf: Date,
  ): Promise<number> {
    return this.db('ask_docs_entities')
      .whereNull('deleted_at')
      .whereRaw('NOT (entity_ref = ANY(?::text[]))', [listedRefs])
      .where(listedNoLaterThan(asOf))
      .update({
        deleted_at: asOf,
        attributes_at: asOf,
        updated_at: this.db.fn.now(),
      });
  }

  async entitiesHiddenSince(noLaterThan: Date): Promise<string[]> {
    return this.db('ask_docs_entities')
      .where('deleted_at', '<=', noLaterThan)
      .pluck('entity_ref');
  }

  async recordVisibilitySync(asOf: Date): Promise<void> {
    await this.db.raw(
      `INSERT INTO ask_docs_visibility_sync (id, last_success_at) VALUES (1, ?)
       ON CONFLICT (id) DO UPDATE SET last_success_at =
         GREATEST(ask_docs_visibility_sync.last_success_at, excluded.last_success_at)`,
      [asOf],
    );
  }

  async configureVisibilityFreshness(
    maxStalenessSeconds: number | undefined,
  ): Promise<void> {
    await this.db('ask_docs_visibility_sync')
      .insert({ id: 1, max_staleness_seconds: maxStalenessSeconds ?? null })
      .onConflict('id')
      .merge(['max_staleness_seconds']);
  }

  async visibilitySyncState(): Promise<VisibilitySyncState> {
    const { rows } = await this.db.raw(
      `SELECT last_success_at, max_staleness_seconds,
              NOT ${FRESH_VISIBILITY_ATTRIBUTES_SQL} AS stale
         FROM (SELECT 1) AS one LEFT JOIN ask_docs_visibility_sync ON id = 1`,
    );
    const r = rows[0];
    return {
      lastSuccessAt: r.last_success_at
        ? new Date(r.last_success_at)
        : undefined,
      maxStalenessSeconds: r.max_staleness_seconds ?? undefined,
      stale: Boolean(r.stale),
    };
  }

  async listEntityRefs(): Promise<string[]> {
    const rows = await this.db('ask_docs_entities').select('entity_ref');
    return rows.map(r => r.entity_ref);
  }

  async deleteReplacedEntity(
    e: EntityRow,
    guard: { asOf: Date; runId?: number },
  ): Promise<number> {
    // The common case, the same entity, costs one read and no transaction.
    if (!(await this.storesAnotherEntity(e))) return 0;
    const hash = entityColumns(e).attributes_hash;
    return this.deleteWithChunks(
      'ask_docs_entities',
      'entity_ref',
      [e.entityRef],
      async tx => {
        if (guard.runId !== undefined)
          await renewInTransaction(tx, guard.runId);
        // Locked: what is deleted is the row checked here, not one written meanwhile.
        const row = await tx('ask_docs_entities')
          .where('entity_ref', e.entityRef)
          .where(listedNoLaterThan(guard.asOf))
          .forUpdate()
          .first('entity_uid', 'attributes_hash');
        return isReplacement(row, e.uid, hash) ? [e.entityRef] : [];
      },
    );
  }

  async storesAnotherEntity(e: EntityRow): Promise<boolean> {
    if (!e.uid) return false;
    const row = await this.db('ask_docs_entities')
      .where('entity_ref', e.entityRef)
      .first('entity_uid', 'attributes_hash');
    return isReplacement(row, e.uid, entityColumns(e).attributes_hash);
  }

  async deleteEntities(
    entityRefs: string[],
    guard?: { runId: number; listedAt: Date },
  ): Promise<number> {
    // The entities' posting lists go with them (ON DELETE CASCADE).
    return this.deleteWithChunks(
      'ask_docs_entities',
      'entity_ref',
      entityRefs,
      guard &&
        (async tx => {
          await renewInTransaction(tx, guard.runId);
          // An entity a later listing wrote (another run's) is not this run's to delete.
          return tx('ask_docs_entities')
            .whereIn('entity_ref', entityRefs)
            .where(listedNoLaterThan(guard.listedAt))
            .pluck('entity_ref');
        }),
    );
  }

  async techDocsSiteKey(entityRef: string): Promise<string | undefined> {
    const row = await this.db('ask_docs_entities')
      .where('entity_ref', entityRef)
      .first('techdocs_site_key');
    return row?.techdocs_site_key ?? undefined;
  }

  async setTechDocsSiteKey(
    entityRef: string,
    key: string | undefined,
    guard?: { runId: number },
  ): Promise<void> {
    await this.db.transaction(async tx => {
      if (guard) await renewInTransaction(tx, guard.runId);
      await tx('ask_docs_entities')
        .where('entity_ref', entityRef)
        .update({ techdocs_site_key: key ?? null });
    });
  }

  async documentStates(
    entityRef: string,
    modelId: string,
  ): Promise<Map<string, StoredDocumentState>> {
    const rows = await this.db('ask_docs_documents as d')
      .where('d.entity_ref', entityRef)
      .select(
        'd.document_id',
        'd.content_hash',
        'd.title',
        'd.url',
        'd.revision',
        'd.analysis_signature',
        this.db.raw(
          `NOT EXISTS (SELECT 1 FROM ask_docs_chunks c
             LEFT JOIN ask_docs_embeddings e
               ON e.chunk_id = c.chunk_id AND e.model_id = ? AND e.content_hash = c.content_hash
             WHERE c.document_id = d.document_id AND e.chunk_id IS NULL) AS embedded`,
          [modelId],
        ),
      );
    return new Map(
      rows.map(r => [
        r.document_id,
        {
          contentHash: r.content_hash,
          title: r.title,
          url: r.url,
          revision: r.revision,
          embedded: Boolean(r.embedded),
          analysisSignature: r.analysis_signature ?? null,
        },
      ]),
    );
  }

  async chunkContentHashes(documentId: string): Promise<string[]> {
    return this.db('ask_docs_chunks')
      .where({ document_id: documentId })
      .orderBy('ordinal')
      .pluck('content_hash');
  }

  async embeddedChunkHashes(
    documentId: string,
    modelId: string,
  ): Promise<Map<string, string>> {
    const rows = await this.db('ask_docs_embeddings as e')
      .join('ask_docs_chunks as c', 'c.chunk_id', 'e.chunk_id')
      .where({ 'c.document_id': documentId, 'e.model_id': modelId })
      .select('e.chunk_id', 'e.content_hash');
    return new Map(rows.map(r => [r.chunk_id, r.content_hash]));
  }

  async replaceDocument(
    doc: DocumentRow,
    chunks: ChunkWrite[],
    vectors: Map<string, number[]>,
    model: { modelId: string; dimension: number },
  ): Promise<ReplacedDocument> {
    const [result] = await this.replaceDocuments(
      [{ doc, chunks, vectors }],
      model,
    );
    return result;
  }

  async replaceDocuments(
    pages: PageWrite[],
    model: { modelId: string; dimension: number },
    guard?: { runId: number },
  ): Promise<ReplacedDocument[]> {
    for (const { chunks, vectors } of pages) {
      for (const c of chunks) {
        const vector = vectors.get(c.chunkId);
        if (vector && vector.length !== model.dimension) {
          throw new Error(
            `Vector of chunk ${c.chunkId} has ${vector.length} dimensions, ` +
              `model ${model.modelId} has ${model.dimension}`,
          );
        }
      }
    }
    return this.db.transaction(async tx => {
      // A run taken over writes nothing more: its pages may be older than the new run's. The
      // run's row first, as every guarded write locks it, then the documents.
      if (guard) await renewInTransaction(tx, guard.runId);
      // Document rows are locked in id order, so concurrent batches cannot deadlock.
      const order = pages
        .map((page, i) => ({ page, i }))
        .sort((x, y) =>
          x.page.doc.documentId < y.page.doc.documentId ? -1 : 1,
        );
      const results: ReplacedDocument[] = new Array(pages.length);
      const written: Array<{ page: PageWrite; changed: ChunkWrite[] }> = [];
      const gone: string[] = [];
      const movedOut: string[] = [];
      const analysed: ChunkWrite[] = [];
      const previousKeys = new Map<string, number[]>();
      /** Chunks that have a row (read under their document's lock). */
      const existingChunks = new Set<string>();
      for (const { page, i } of order) {
        const r = await this.writeDocumentRow(tx, page);
        written.push({ page, changed: r.changed });
        r.existing.forEach(id => existingChunks.add(id));
        gone.push(...r.gone);
        movedOut.push(...r.movedOut);
        analysed.push(...r.analysed);
        r.previousKeys.forEach((keys, id) => previousKeys.set(id, keys));
        results[i] = {
          chunksWritten: r.changed.length,
          chunksDeleted: r.gone.length,
          chunksReanalysed: r.analysed.length - r.changed.length,
        };
      }
      // Chunks leave their posting lists before their rows go, and a moved page's chunks leave
      // the old entity's while their rows still name it.
      const leaving = [...new Set([...gone, ...movedOut])];
      if (leaving.length > 0) {
        await rewriteChunkKeys(
          tx,
          leaving.map(chunkId => ({ chunkId, terms: null })),
        );
      }
      if (gone.length > 0) {
        await tx('ask_docs_chunks').whereIn('chunk_id', gone).delete();
        gone.forEach(id => existingChunks.delete(id));
      }
      // Analysed chunks are written with their key lists; the others keep theirs.
      const prepared = await prepareChunkKeys(tx, analysed);
      // Unchanged chunks still get the page's new revision and position. Keyed by id: one
      // INSERT ... ON CONFLICT may not touch a row twice (the last one wins).
      const chunkRows = Array.from(
        new Map(
          written.flatMap(({ page: { doc, chunks } }) =>
            chunks.map(c => [
              c.chunkId,
              chunkColumns({
                ...c,
                documentId: doc.documentId,
                entityRef: doc.entityRef,
                revision: doc.revision,
              }),
            ]),
          ),
        ).values(),
      );
      const keyed = chunkRows.flatMap(row => {
        const keys = prepared.get(row.chunk_id);
        return keys ? [{ ...row, key_ids: keys.list }] : [];
      });
      const unkeyed = chunkRows.filter(row => !prepared.has(row.chunk_id));
      for (const group of [keyed, unkeyed]) {
        // Stored rows are updated, not upserted: INSERT ... ON CONFLICT would take a chunk_no
        // (int4) from the identity for every unchanged chunk of every page written again.
        const [update, insert] = [
          group.filter(row => existingChunks.has(row.chunk_id)),
          group.filter(row => !existingChunks.has(row.chunk_id)),
        ];
        for (let i = 0; i < update.length; i += CHUNK_INSERT_BATCH) {
          await updateChunkRows(tx, update.slice(i, i + CHUNK_INSERT_BATCH));
        }
        for (let i = 0; i < insert.length; i += CHUNK_INSERT_BATCH) {
          await tx('ask_docs_chunks')
            .insert(insert.slice(i, i + CHUNK_INSERT_BATCH))
            .onConflict('chunk_id')
            .merge(mergeChunkColumns(tx, Object.keys(insert[0])));
        }
      }
      // One rewrite of the posting lists for the whole batch: a key shared by its pages is
      // read and written once, not once a page.
      await rewritePostings(
        tx,
        [...prepared].map(([chunkId, keys]) => ({
          chunkId,
          previous: previousKeys.get(chunkId) ?? [],
          next: keys.tfs,
        })),
      );

      const embeddingRows = Array.from(
        new Map(
          written.flatMap(({ page: { doc, chunks, vectors } }) =>
            chunks.flatMap(c => {
              const vector = vectors.get(c.chunkId);
              if (!vector) return [];
              const row = {
                chunk_id: c.chunkId,
                entity_ref: doc.entityRef,
                model_id: model.modelId,
                content_hash: c.contentHash,
                dimension: model.dimension,
                embedding: toVectorLiteral(vector),
              };
              return [[c.chunkId, row] as const];
            }),
          ),
        ).values(),
      );
      for (let i = 0; i < embeddingRows.length; i += CHUNK_INSERT_BATCH) {
        await tx('ask_docs_embeddings')
          .insert(embeddingRows.slice(i, i + CHUNK_INSERT_BATCH))
          .onConflict(['chunk_id', 'model_id'])
          .merge();
      }
      return results;
    });
  }

  /**
   * A page's document row, and what changes for its chunks: the ids that are gone, the chunks
   * with new text, and those whose postings are rebuilt (changed ones, and all of them when the
   * stored analysis signature or language differs, or the page moved). The texts replaced or gone
   * are archived here.
   */
  private async writeDocumentRow(tx: Knex.Transaction, page: PageWrite) {
    const { doc, chunks } = page;
    // Locked until commit: a concurrent write of the same page then sees this signature.
    const stored = await tx('ask_docs_documents')
      .where('document_id', doc.documentId)
      .forUpdate()
      .first('analysis_signature', 'entity_ref', 'lang');
    // A page whose entity ref changed case keeps its ids (identity.ts) but changes entity: its
    // chunks leave the old entity's posting lists and enter the new one's as new chunks.
    const moved = stored !== undefined && stored.entity_ref !== doc.entityRef;
    // A page detected in another language is analysed in it whole, unchanged chunks too: their
    // keys must be those a fresh index of the page would have.
    const reanalyse =
      moved ||
      (stored !== undefined &&
        ((stored.analysis_signature ?? null) !==
          (doc.analysisSignature ?? null) ||
          stored.lang !== doc.lang));
    await tx('ask_docs_documents')
      .insert({
        document_id: doc.documentId,
        entity_ref: doc.entityRef,
        source_kind: doc.sourceKind,
        page_path: doc.pagePath,
        title: doc.title,
        url: doc.url,
        lang: doc.lang,
        revision: doc.revision,
        content_hash: doc.contentHash,
        text_length: doc.textLength,
        note: doc.note ?? null,
        analysis_signature: doc.analysisSignature ?? null,
        updated_at: tx.fn.now(),
      })
      .onConflict('document_id')
      .merge();
    const rows = await tx('ask_docs_chunks')
      .where('document_id', doc.documentId)
      .select('chunk_id', 'content_hash', 'key_ids');
    const existing = new Map<string, string>(
      rows.map(r => [r.chunk_id, r.content_hash]),
    );
    const previousKeys = new Map<string, number[]>(
      moved ? [] : rows.map(r => [r.chunk_id, decodeKeyIds(r.key_ids)]),
    );
    const keep = new Set(chunks.map(c => c.chunkId));
    const gone = [...existing.keys()].filter(id => !keep.has(id));
    const changed = chunks.filter(
      c => existing.get(c.chunkId) !== c.contentHash,
    );
    // Replaced texts stay addressable in ask_docs_chunk_versions for audit replay.
    const replacedIds = [
      ...gone,
      ...changed.map(c => c.chunkId).filter(id => existing.has(id)),
    ];
    if (replacedIds.length > 0) await this.archiveVersions(tx, replacedIds);
    return {
      existing: [...existing.keys()],
      gone,
      movedOut: moved ? [...existing.keys()] : [],
      changed,
      analysed: reanalyse ? chunks : changed,
      previousKeys,
    };
  }

  async deleteDocuments(
    documentIds: string[],
    guard?: { runId: number },
  ): Promise<number> {
    return this.deleteWithChunks(
      'ask_docs_documents',
      'document_id',
      documentIds,
      guard &&
        (async tx => {
          await renewInTransaction(tx, guard.runId);
          return documentIds;
        }),
      async (tx, chunks) => {
        const chunkIds = await chunks().pluck('chunk_id');
        await rewriteChunkKeys(
          tx,
          chunkIds.map(chunkId => ({ chunkId, terms: null })),
        );
      },
    );
  }

  /**
   * Deletes the rows of `table` whose `column` is one of `values`, and their chunks: versions
   * superseded first, then `beforeDelete` (the chunks still there); returns the chunks deleted.
   */
  private async deleteWithChunks(
    table: 'ask_docs_entities' | 'ask_docs_documents',
    column: 'entity_ref' | 'document_id',
    requested: string[],
    /** Of the rows requested, those to delete (all unless given). */
    narrow?: (tx: Knex.Transaction) => Promise<string[]>,
    beforeDelete?: (
      tx: Knex.Transaction,
      chunks: () => Knex.QueryBuilder,
    ) => Promise<void>,
  ): Promise<number> {
    if (requested.length === 0) return 0;
    return this.db.transaction(async tx => {
      const values = narrow ? await narrow(tx) : requested;
      const chunks = () => tx('ask_docs_chunks').whereIn(column, values);
      await this.archiveVersions(tx, chunks().select('chunk_id'));
      await beforeDelete?.(tx, chunks);
      const n = await chunks().delete();
      await tx(table).whereIn(column, values).delete();
      return n;
    });
  }

  async refreshIndexStatistics(): Promise<void> {
    // Not in a transaction (VACUUM cannot be); autovacuum would get there too, but later, and
    // embedded PGlite has no autovacuum at all.
    await this.db.raw(
      'VACUUM (ANALYZE) ask_docs_postings, ask_docs_keys, ask_docs_entity_totals, ' +
        'ask_docs_chunks, ask_docs_embeddings',
    );
  }

  async registerModel(model: {
    modelId: string;
    dimension: number;
    kind: string;
  }): Promise<void> {
    await this.db('ask_docs_models')
      .insert({
        model_id: model.modelId,
        dimension: model.dimension,
        kind: model.kind,
      })
      .onConflict('model_id')
      .merge({ last_used_at: this.db.fn.now() });
    // Other files under the same id: its stored vectors have another size, so vector search
    // would find nothing and no chunk would be embedded again. Say so instead.
    const stored = await this.db('ask_docs_models')
      .where({ model_id: model.modelId })
      .first('dimension');
    if (stored && Number(stored.dimension) !== model.dimension) {
      throw new Error(
        `embedding model ${model.modelId} gives vectors of dimension ${model.dimension}, but ` +
          `the index holds its vectors of dimension ${stored.dimension}: another model under ` +
          'the same id. Give it its own id (askDocs.embeddings.model and its directory), or ' +
          'put the model the index was built with back',
      );
    }
  }

  async retireUnusedModels(options: {
    unusedDays: number;
    keep: readonly string[];
  }): Promise<Array<{ modelId: string; vectors: number }>> {
    // Database time on both sides, as the registrations are.
    const unused = (q: Knex.QueryBuilder) =>
      q.where(
        'last_used_at',
        '<',
        this.db.raw('now() - make_interval(secs => ?)', [
          options.unusedDays * 86_400,
        ]),
      );
    const stale = await unused(this.db('ask_docs_models'))
      .whereNotIn('model_id', [...options.keep])
      .select('model_id', 'dimension');
    const retired: Array<{ modelId: string; vectors: number }> = [];
    for (const { model_id: modelId, dimension } of stale) {
      // Locked and checked again: an instance starting with this model waits for the commit,
      // then registers it afresh (its next run embeds every chunk again).
      const vectors = await this.db.transaction(async trx => {
        const still = await unused(trx('ask_docs_models'))
          .where({ model_id: modelId })
          .forUpdate()
          .first('model_id');
        if (!still) return undefined;
        return trx('ask_docs_embeddings').where({ model_id: modelId }).delete();
      });
      if (vectors === undefined) continue;
      // Outside a transaction and concurrently: a plain drop would lock every vector search
      // out while it waited behind a long VACUUM or index build; this one waits alone. The row
      // goes only after it, so a drop that failed is tried again the next day.
      await this.db.raw(
        `DROP INDEX CONCURRENTLY IF EXISTS ${vectorIndexName(
          modelId,
          Number(dimension),
        )}`,
      );
      // Registered again meanwhile: the row stays, and that instance's hourly registration
      // builds its index again (plugin.ts).
      await unused(this.db('ask_docs_models'))
        .where({ model_id: modelId })
        .delete();
      retired.push({ modelId, vectors });
    }
    return retired;
  }

  async startRun(
    trigger: 'schedule' | 'manual',
    staleAfterMs: number,
  ): Promise<RunStart> {
    // A few tries: the run in the way may finish between our insert and our look at it.
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.failAbandonedRuns(staleAfterMs);
      // The partial unique index (migration 0009) admits one 'running' run: of two instances
      // starting at once, one inserts and the other finds its run.
      const { rows } = await this.db.raw(
        `INSERT INTO ask_docs_ingestion_runs (trigger, status) VALUES (?, 'running')
         ON CONFLICT (status) WHERE status = 'running' DO NOTHING RETURNING id`,
        [trigger],
      );
      if (rows.length) return { runId: rows[0].id, started: true };
      const running = await this.db('ask_docs_ingestion_runs')
        .where('status', 'running')
        .first('id');
      if (running) return { runId: running.id, started: false };
    }
    throw new Error('could not start an ingestion run: runs kept starting');
  }

  async failAbandonedRuns(staleAfterMs: number): Promise<number> {
    // Database time on both sides: the instances' clocks may disagree.
    return this.db('ask_docs_ingestion_runs')
      .where('status', 'running')
      .where(
        'heartbeat_at',
        '<',
        this.db.raw('now() - make_interval(secs => ?)', [staleAfterMs / 1000]),
      )
      .update({
        status: 'failed',
        finished_at: this.db.fn.now(),
        errors: this.db.raw(
          `errors || jsonb_build_array(jsonb_build_object('message',
             'abandoned: no heartbeat from the backend instance running it since ' ||
             to_char(heartbeat_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') ||
             ' UTC (it stopped, lost the database or got stuck); a later start took over'))`,
        ),
      });
  }

  async heartbeatRun(runId: number): Promise<boolean> {
    return renewHeartbeat(this.db, runId);
  }

  async updateRun(runId: number, p: RunProgress): Promise<void> {
    await this.db('ask_docs_ingestion_runs')
      .where({ id: runId, status: 'running' })
      .update({ ...progressColumns(p), heartbeat_at: this.db.fn.now() });
  }

  async finishRun(
    runId: number,
    status: 'succeeded' | 'failed',
    p: RunProgress,
  ): Promise<boolean> {
    // A run another instance marked abandoned keeps that record: it no longer held ingestion.
    const n = await this.db('ask_docs_ingestion_runs')
      .where({ id: runId, status: 'running' })
      .update({ ...progressColumns(p), status, finished_at: this.db.fn.now() });
    return n > 0;
  }

  async latestRun() {
    const r = await this.db('ask_docs_ingestion_runs')
      .orderBy('id', 'desc')
      .first();
    if (!r) return undefined;
    return {
      runId: r.id,
      status: r.status,
      trigger: r.trigger,
      startedAt: toIso(r.started_at)!,
      finishedAt: toIso(r.finished_at),
      entitiesDone: r.entities_done,
      pagesDone: r.pages_done,
      pagesSkipped: r.pages_skipped,
      chunksWritten: r.chunks_written,
      chunksEmbedded: r.chunks_embedded,
      chunksDeleted: r.chunks_deleted,
      chunksReanalysed: r.chunks_reanalysed ?? 0,
      errors: r.errors ?? [],
    };
  }

  async insertAnswer(a: AnswerWrite): Promise<{ createdAt: string }> {
    const [row] = await this.db('ask_docs_answers').insert(
      {
        id: a.id,
        user_ref: a.userRef,
        question: a.question,
        status: a.status,
        grounded: a.grounded,
        scope: JSON.stringify(a.scope ?? {}),
        policy: JSON.stringify(a.policy ?? null),
        retrieved: JSON.stringify(a.retrieved),
        embedding_model: a.embeddingModel,
        llm_model: a.llmModel ?? null,
        raw_output: a.rawOutput ?? null,
        answer: a.answer,
        // The thread link and the asking plugin live with the other replay fields: no column,
        // no migration.
        sources: JSON.stringify({
          sources: a.sources,
          evidence: a.evidence,
          notice: a.notice ?? null,
          reason: a.reason ?? null,
          quota: a.quota ?? null,
          corrections: a.corrections ?? [],
          threadId: a.threadId ?? null,
          threadDocumentIds: a.threadDocumentIds ?? null,
          askedVia: a.askedVia ?? null,
        }),
      },
      ['created_at'],
    );
    return { createdAt: toIso(row.created_at)! };
  }

  async getAnswer(id: string): Promise<StoredAnswer | undefined> {
    // Only a UUID reaches the uuid column: any other id is unknown, never a database error.
    if (!isAnswerId(id)) return undefined;
    const r = await this.db('ask_docs_answers')
      .where('id', id)
      .whereNot('status', ABANDONED_STATUS)
      .first();
    return r ? answerFromRow(r) : undefined;
  }

  async listAnswers(
    userRef: string,
    page: { limit: number; before?: string },
  ): Promise<StoredAnswer[]> {
    const { limit, before } = page;
    if (before !== undefined && !isAnswerId(before)) return [];
    const rows = await this.db('ask_docs_answers')
      .where('user_ref', userRef)
      .whereNot('status', ABANDONED_STATUS)
      .modify(q => {
        // Keyset paging: answers of one instant are ordered by id, so none is skipped or
        // repeated. Another user's answer (or one deleted) as `before` selects nothing.
        if (before !== undefined)
          q.whereRaw(
            '(created_at, id) < (SELECT created_at, id FROM ask_docs_answers ' +
              'WHERE id = ? AND user_ref = ?)',
            [before, userRef],
          );
      })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit);
    return rows.map(answerFromRow);
  }

  async setFeedback(id: string, feedback: AnswerFeedback): Promise<void> {
    if (!isAnswerId(id)) return;
    await this.db('ask_docs_answers')
      .where('id', id)
      .update({ feedback: JSON.stringify(feedback) });
  }

  async countModelCalls(
    userRef: string,
    withinSeconds: number,
  ): Promise<number> {
    // The (user_ref, created_at) index finds the rows; llm_model is set when the model was asked.
    const [{ n }] = await this.db('ask_docs_answers')
      .where('user_ref', userRef)
      .whereNotNull('llm_model')
      // A call refused or never served generated nothing and costs nothing; a timed-out or
      // cut-off one may have been generated, and billed, in full, and so was one that sent text
      // before its connection dropped (raw_output holds what it sent).
      .where(q =>
        q
          .whereRaw(
            "coalesce(policy->'modelError'->>'reason', '') <> ALL(?::text[])",
            [UNSERVED_MODEL_CALLS],
          )
          .orWhereRaw("coalesce(raw_output, '') <> ''"),
      )
      .where(
        'created_at',
        '>',
        this.db.raw('now() - make_interval(secs => ?)', [withinSeconds]),
      )
      .count({ n: '*' });
    return Number(n);
  }

  async deleteAnswersBefore(date: Date): Promise<number> {
    return this.db('ask_docs_answers').where('created_at', '<', date).delete();
  }

  async deleteChunkVersions(options: {
    supersededBefore: Date;
    keepAnswersSince: Date;
  }): Promise<number> {
    // Answers record what they retrieved as {chunkId, contentHash} in `retrieved`; a version
    // one of them needs for replay stays as long as that answer does.
    const { rowCount } = await this.db.raw(
      `DELETE FROM ask_docs_chunk_versions v
        WHERE v.superseded_at IS NOT NULL AND v.superseded_at < ?
          AND NOT EXISTS (
            SELECT 1 FROM ask_docs_answers a
             CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(a.retrieved) = 'array'
               THEN a.retrieved ELSE '[]'::jsonb END) AS r(item)
             WHERE a.created_at >= ?
               AND r.item ->> 'chunkId' = v.chunk_id
               AND r.item ->> 'contentHash' = v.content_hash)`,
      [options.supersededBefore, options.keepAnswersSince],
    );
    return rowCount ?? 0;
  }

  async currentRevisions(
    documentIds: string[],
    visibility: Visibility,
  ): Promise<Map<string, string | null>> {
    const result = new Map<string, string | null>(
      documentIds.map(id => [id, null]),
    );
    if (documentIds.length === 0) return result;
    const rows = await applyVisibility(
      visibility,
      this.db('ask_docs_documents'),
      'entity_ref',
    )
      .whereIn('document_id', documentIds)
      .select('document_id', 'revision');
    for (const r of rows) result.set(r.document_id, r.revision);
    return result;
  }

  async visibleEntityRefs(
    entityRefs: string[],
    visibility: Visibility,
  ): Promise<Set<string>> {
    const refs = entityRefs.map(r => r.toLowerCase());
    if (refs.length === 0) return new Set();
    const rows: Array<{ ref: string }> = await applyVisibility(
      visibility,
      this.db('ask_docs_entities'),
      'entity_ref',
    )
      .whereRaw('lower(entity_ref) = ANY(?::text[])', [refs])
      .select(this.db.raw('lower(entity_ref) AS ref'));
    return new Set(rows.map(r => r.ref));
  }

  /**
   * Copies the current versions of these chunks to ask_docs_chunk_versions, superseded now, before
   * their rows change or go (migration 0008: the current text is stored once, in the chunk row).
   */
  private async archiveVersions(
    tx: Knex.Transaction,
    chunkIds: string[] | Knex.QueryBuilder,
  ) {
    const isList = Array.isArray(chunkIds);
    await tx.raw(
      `INSERT INTO ask_docs_chunk_versions (${VERSION_COLUMNS}, first_seen, superseded_at)
       SELECT ${VERSION_COLUMNS}, first_seen, now() FROM ask_docs_chunks
        WHERE chunk_id ${isList ? '= ANY(?::text[])' : 'IN ?'}
       ON CONFLICT (chunk_id, content_hash) DO UPDATE SET superseded_at = excluded.superseded_at`,
      [chunkIds],
    );
  }
}

/**
 * Renews the run's heartbeat inside `tx`, or throws RunTakenOverError. The update locks the run's
 * row until `tx` commits: another instance cannot mark the run abandoned, and start its own, in
 * the middle of what `tx` does.
 */
async function renewInTransaction(tx: Knex.Transaction, runId: number) {
  if (!(await renewHeartbeat(tx, runId))) throw new RunTakenOverError(runId);
}

/** Sets the run's heartbeat to now; false when it is no longer running (taken over, ended). */
async function renewHeartbeat(db: Knex, runId: number): Promise<boolean> {
  const n = await db('ask_docs_ingestion_runs')
    .where({ id: runId, status: 'running' })
    .update({ heartbeat_at: db.fn.now() });
  return n > 0;
}

function progressColumns(p: RunProgress) {
  return {
    entities_done: p.entitiesDone,
    pages_done: p.pagesDone,
    pages_skipped: p.pagesSkipped,
    chunks_written: p.chunksWritten,
    chunks_embedded: p.chunksEmbedded,
    chunks_deleted: p.chunksDeleted,
    chunks_reanalysed: p.chunksReanalysed,
    errors: JSON.stringify(storedErrors(p.errors)),
  };
}

/** Errors a run record keeps. */
const MAX_STORED_ERRORS = 200;

/**
 * The first errors, a count of those left out, and the last one: a run's abort reason comes
 * last and must survive a run that first failed on many pages.
 */
function storedErrors(errors: RunProgress['errors']): RunProgress['errors'] {
  if (errors.length <= MAX_STORED_ERRORS) return errors;
  const kept = MAX_STORED_ERRORS - 2;
  return [
    ...errors.slice(0, kept),
    { message: `${errors.length - kept - 1} more errors not stored` },
    errors[errors.length - 1],
  ];
}

function toIso(v: unknown): string | undefined {
  if (!v) return undefined;
  return v instanceof Date
    ? v.toISOString()
    : new Date(String(v)).toISOString();
}

function answerFromRow(r: any): StoredAnswer {
  const extra = r.sources ?? {};
  return {
    id: r.id,
    createdAt: toIso(r.created_at)!,
    userRef: r.user_ref,
    question: r.question,
    scope: r.scope ?? {},
    status: r.status,
    grounded: r.grounded,
    policy: r.policy,
    retrieved: r.retrieved ?? [],
    embeddingModel: r.embedding_model,
    llmModel: r.llm_model ?? undefined,
    rawOutput: r.raw_output ?? undefined,
    answer: r.answer,
    sources: extra.sources ?? [],
    evidence: extra.evidence ?? [],
    notice: extra.notice ?? undefined,
    reason: extra.reason ?? undefined,
    quota: extra.quota ?? undefined,
    corrections: extra.corrections ?? [],
    threadId: extra.threadId ?? undefined,
    threadDocumentIds: extra.threadDocumentIds ?? undefined,
    askedVia: extra.askedVia ?? undefined,
    feedback: r.feedback ?? undefined,
  };
}

/** The columns a superseded version keeps (the chunk row's, as they were). */
const VERSION_COLUMNS =
  'chunk_id, content_hash, revision, document_id, entity_ref, title, section_path, anchor, text';

/** Types of the chunk row columns the store writes (chunkColumns, and the key list). */
const CHUNK_COLUMN_TYPES: Record<
  keyof ReturnType<typeof chunkColumns> | 'key_ids',
  string
> = {
  chunk_id: 'text',
  document_id: 'text',
  entity_ref: 'text',
  ordinal: 'int',
  title: 'text',
  section_path: 'text',
  anchor: 'text',
  char_start: 'int',
  char_end: 'int',
  text: 'text',
  content_hash: 'text',
  revision: 'text',
  lang: 'text',
  term_count: 'int',
  key_ids: 'bytea',
};

/** Updates stored chunk rows in one statement, as mergeChunkColumns would merge them. */
async function updateChunkRows(
  tx: Knex.Transaction,
  rows: Array<Record<string, unknown>>,
) {
  const columns = Object.keys(rows[0]) as Array<
    keyof typeof CHUNK_COLUMN_TYPES
  >;
  const set = columns.filter(c => c !== 'chunk_id').map(c => `${c} = x.${c}`);
  const { rowCount } = await tx.raw(
    `UPDATE ask_docs_chunks c SET ${set.join(', ')},
       first_seen = CASE WHEN c.content_hash = x.content_hash THEN c.first_seen ELSE now() END
       FROM unnest(${columns
         .map(c => `?::${CHUNK_COLUMN_TYPES[c]}[]`)
         .join(', ')})
         AS x(${columns.join(', ')})
      WHERE c.chunk_id = x.chunk_id`,
    columns.map(c => rows.map(r => r[c])) as Knex.RawBinding[],
  );
  // The rows were read under their documents' locks: one missing now is a bug, not a race.
  if (rowCount !== rows.length)
    throw new Error(
      `updated ${rowCount} of ${rows.length} stored chunk rows: the index changed underneath`,
    );
}

/**
 * The ON CONFLICT update of a chunk row: every written column, and `first_seen` reset only when
 * the text changed (an unchanged chunk is rewritten for its page's new revision and position).
 */
function mergeChunkColumns(tx: Knex.Transaction, columns: string[]) {
  return {
    ...Object.fromEntries(columns.map(c => [c, tx.raw('excluded.??', [c])])),
    first_seen: tx.raw(
      'CASE WHEN ask_docs_chunks.content_hash = excluded.content_hash ' +
        'THEN ask_docs_chunks.first_seen ELSE now() END',
    ),
  };
}
