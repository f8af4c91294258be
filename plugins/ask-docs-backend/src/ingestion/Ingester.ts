import { LoggerService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import pLimit from 'p-limit';
import { PageWriter } from './pageWriter';
import {
  AskDocsStore,
  ChunkWrite,
  DocumentRow,
  RunProgress,
  RunStart,
  RunTakenOverError,
  EntityRow,
  StoredDocumentState,
} from '../database/AskDocsStore';
import { Embedder } from '../embedding';
import type { AskDocsMetrics } from '../metrics';
import {
  Analyzers,
  analysisSignature,
  analyzeText,
  detectLanguage,
} from '../language';
import { entityRow, entityUrl, techDocsUrl } from './entityRow';
import {
  DEFAULT_MAX_CHUNK_CHARS,
  DEFAULT_MAX_PAGE_CHARS,
  ParsedPage,
  chunkSections,
  documentIdFor,
  entityToDocument,
  pageUrlPath,
  parseHtmlPage,
  sha256Hex,
} from './parsing';
import { pageSignature } from './pageSignature';
import { PARSER_VERSION } from './parsing/parserVersion';
import {
  printablePagePath,
  RefusedPagePathError,
  resolveSitePagePath,
} from './sitePagePath';
import {
  EntitySource,
  TechDocsReader,
  TechDocsSiteMetadata,
  TechDocsSiteNotFoundError,
} from './sources';

export interface IngesterOptions {
  store: AskDocsStore;
  entities: EntitySource;
  techdocs: TechDocsReader;
  embedder: Embedder;
  analyzers: Analyzers;
  languages: string[];
  logger: LoggerService;
  maxPageChars?: number;
  maxChunkChars?: number;
  concurrency?: number;
  /** TechDocs' `techdocs.legacyUseCaseSensitiveTripletPaths`: its URLs keep the entity's case. */
  legacyUseCaseSensitiveTripletPaths?: boolean;
  /** How a run holds ingestion across backend instances; `defaultRunLease` unless set. */
  runLease?: RunLease;
  /** Counts each run of this instance that ends (outcome, duration, pages, chunks, errors). */
  metrics?: AskDocsMetrics;
  /**
   * Days an entity the catalog no longer lists stays in the index, hidden, before its chunks
   * are deleted (`askDocs.retention.removedEntityDays`); unset: 0, deleted by the run that
   * misses it.
   */
  removedEntityDays?: number;
}

/**
 * One run at a time across backend instances. The running instance renews its run's heartbeat
 * before each entity, and every `heartbeatMs` while pages get done (a run stuck on a request
 * that never returns renews nothing). A run without a heartbeat for `staleAfterMs` counts as
 * abandoned: the next start, on any instance, marks it failed and takes over, and the stuck
 * instance, should it wake, stops before its next entity.
 */
export interface RunLease {
  heartbeatMs: number;
  staleAfterMs: number;
}

/** Ten heartbeats missed in a row before another instance may take over. */
export const defaultRunLease: RunLease = {
  heartbeatMs: 30_000,
  staleAfterMs: 300_000,
};

interface DocumentInput {
  entityRef: string;
  sourceKind: 'techdocs' | 'catalog';
  pagePath: string;
  url: string;
  revision: string;
  page: ParsedPage;
}

/** The counters of a run that has done nothing yet. */
export const emptyProgress = (): RunProgress => ({
  entitiesDone: 0,
  pagesDone: 0,
  pagesSkipped: 0,
  chunksWritten: 0,
  chunksEmbedded: 0,
  chunksDeleted: 0,
  chunksReanalysed: 0,
  errors: [],
});

/** Failed pages of a site none of whose pages was read, after which the rest is not tried. */
export const SITE_DOWN_AFTER_FAILURES = 5;

const DAY_MS = 86_400_000;

/** An entity's site key as this run read it (when it read the site's pages) and as stored. */
interface SiteKey {
  read?: string;
  stored?: string;
}

/** What a run did; `failure` says why it stopped before the end (it is recorded as failed). */
export interface RunResult extends RunProgress {
  failure?: string;
}

/**
 * One ingestion run: every catalog entity and its TechDocs pages into the knowledge index.
 * Unchanged pages are skipped and unchanged chunks keep their ids and vectors; a failing page is
 * recorded and skipped, never aborting the run (and never deleting what was indexed before).
 */
export class Ingester {
  private readonly limit: ReturnType<typeof pLimit>;
  private running: Promise<RunProgress> | undefined;
  /** Titles seen in the current run, to warn about duplicates (decision record 0003). */
  private titles = new Map<string, string>();
  /** Pages embedded (before their batch is written): progress the lease counts. */
  private pagesEmbedded = 0;
  /**
   * The analysis the postings are made with now; documents stored under another are re-analysed.
   */
  private readonly signature: string;

  constructor(private readonly o: IngesterOptions) {
    this.limit = pLimit(o.concurrency ?? 4);
    this.signature = analysisSignature(o.analyzers, o.languages);
  }

  isRunning(): boolean {
    return this.running !== undefined;
  }

  /**
   * Runs once; a call while a run is in progress here joins that run. While another instance
   * runs one, rejects at once with IngestionRunningElsewhereError (that run goes on there).
   * `signal` (the scheduler's: its timeout, a shutdown, a cancellation) stops the run it starts
   * before its next entity, recorded as failed; a call that joins a run does not stop it. So does
   * stop(), whoever started the run.
   */
  run(
    trigger: 'schedule' | 'manual',
    options: { signal?: AbortSignal } = {},
  ): Promise<RunResult> {
    if (this.stopping.signal.aborted && !this.running) {
      // Nothing runs: a caller waiting for the run's record must not get the last run's.
      this.registered = Promise.resolve(undefined);
      return Promise.reject(
        new Error('ingestion is stopped: the backend is shutting down'),
      );
    }
    if (!this.running) {
      let registered: (start: RunStart | undefined) => void = () => {};
      this.registered = new Promise(resolve => (registered = resolve));
      this.signal = options.signal
        ? AbortSignal.any([options.signal, this.stopping.signal])
        : this.stopping.signal;
      this.running = this.doRun(trigger, registered).finally(() => {
        registered(undefined);
        this.running = undefined;
      });
    }
    return this.running;
  }

  /**
   * Resolves once the current run is recorded, so its progress can be read right away: its id,
   * and whether it is this instance's (not `started`: another instance's, in progress).
   */
  async currentRun(): Promise<RunStart | undefined> {
    return this.registered;
  }

  private registered: Promise<RunStart | undefined> | undefined;
  /** The current run's cancellation: its starter's signal, or stop(). */
  private signal: AbortSignal | undefined;
  private readonly stopping = new AbortController();

  /**
   * For the backend's shutdown: stops the current run before its next entity and waits (at most
   * `waitMs`) for it to be recorded as failed, while the database is still there. A run left
   * 'running' would block the next start until its lease went stale. No run starts after this.
   */
  async stop(waitMs = 20_000): Promise<void> {
    this.stopping.abort();
    const running = this.running;
    if (!running) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      running.catch(() => {}),
      new Promise(resolve => (timer = setTimeout(resolve, waitMs))),
    ]);
    clearTimeout(timer);
  }
  /** An entity row of the current run could not be written: the run is no attribute sync. */
  private attributesFailed = false;

  private async doRun(
    trigger: 'schedule' | 'manual',
    registered: (start: RunStart) => void,
  ): Promise<RunResult> {
    const { store, embedder, logger } = this.o;
    await store.registerModel({
      modelId: embedder.modelId,
      dimension: embedder.dimension,
      kind: embedder.kind,
    });
    // The run's listing is also a sync of visibility attributes, as of its start (database time);
    // read before the run is recorded, so a failure here leaves no run 'running'.
    const listedAt = await store.databaseNow();
    const lease = this.o.runLease ?? defaultRunLease;
    const start = await store.startRun(trigger, lease.staleAfterMs);
    registered(start);
    const { runId } = start;
    if (!start.started) throw new IngestionRunningElsewhereError(runId);
    const progress = emptyProgress();
    const started = performance.now();
    const heartbeat = new RunHeartbeat(
      store,
      runId,
      lease,
      logger,
      progress,
      () => this.pagesEmbedded,
      this.signal,
    );
    try {
      const result = await this.ingestAll(runId, listedAt, heartbeat, progress);
      this.o.metrics?.ingestionRun({
        outcome: result.failure === undefined ? 'succeeded' : 'failed',
        seconds: (performance.now() - started) / 1000,
        progress: result,
      });
      return result;
    } finally {
      heartbeat.stop();
    }
  }

  private async ingestAll(
    runId: number,
    listedAt: Date,
    heartbeat: RunHeartbeat,
    progress: RunProgress,
  ): Promise<RunResult> {
    const { store, logger } = this.o;
    this.titles = new Map();
    const seen = new Set<string>();
    let listingComplete = false;
    this.attributesFailed = false;
    let lastUpdate = Date.now();
    // One entity's last writes may still run while the next one's pages are read and embedded.
    let finishing: Promise<void> = Promise.resolve();
    try {
      for await (const entity of this.o.entities.listEntities()) {
        // Here, after the listing (which may have stalled), not after the last entity.
        await heartbeat.proceed();
        const ref = stringifyEntityRef(entity);
        seen.add(ref);
        const failed = (e: unknown) => {
          progress.errors.push({ entityRef: ref, message: errorMessage(e) });
          logger.warn(`ask-docs: failed to ingest ${ref}: ${errorMessage(e)}`);
        };
        try {
          const { finished } = await this.ingestEntity(
            entity,
            progress,
            listedAt,
            runId,
          );
          const settled = finished.catch(failed); // handled from the start
          await finishing;
          finishing = settled;
        } catch (e) {
          failed(e);
        }
        progress.entitiesDone += 1;
        if (Date.now() - lastUpdate > 2000) {
          lastUpdate = Date.now();
          // Progress is informational: a database hiccup here must not abort the run.
          await store
            .updateRun(runId, progress)
            .catch(e =>
              logger.warn(
                `ask-docs: could not save progress: ${errorMessage(e)}`,
              ),
            );
        }
      }
      await finishing;
      listingComplete = true;
      // Deleted entities disappear, but only after a complete listing: a failed page of the
      // catalog must not wipe the index. Nor a run taken over: the other run's entities are not
      // in this listing (the store asks the database, in the deleting transaction).
      await heartbeat.proceed();
      // What remains is bounded work (deletes, statistics): renewed whether or not pages move.
      heartbeat.finishing();
      const gone = (await store.listEntityRefs()).filter(ref => !seen.has(ref));
      if (seen.size === 0 && gone.length > 0) {
        // A catalog that lists nothing (a new or restored catalog database, a provider's bad
        // hour) is not taken at its word: re-indexing everything costs hours. No sync is
        // recorded by this run (it read no attributes); the visibility sync, when on, reads
        // the same empty catalog and hides the entities until they are listed again.
        progress.errors.push({
          message:
            `the catalog listed no entities: the ${gone.length} indexed entities are kept ` +
            '(an index is emptied only by a listing that names at least one entity)',
        });
        logger.error(`ask-docs: ${progress.errors.at(-1)!.message}`);
      } else {
        // Hidden at once; deleted once hidden for removedEntityDays, so that an entity a catalog
        // provider drops for an hour comes back without its pages read and embedded again.
        await store.hideEntitiesNotListed([...seen], listedAt);
        const expired = new Set(
          await store.entitiesHiddenSince(
            new Date(
              listedAt.getTime() - (this.o.removedEntityDays ?? 0) * DAY_MS,
            ),
          ),
        );
        const deleting = gone.filter(ref => expired.has(ref));
        progress.chunksDeleted += await store.deleteEntities(deleting, {
          runId,
          listedAt,
        });
        if (deleting.length < gone.length) {
          logger.info(
            `ask-docs: ${
              gone.length - deleting.length
            } entities the catalog no longer ` +
              'lists are hidden; their chunks are deleted after ' +
              `askDocs.retention.removedEntityDays (${this.o.removedEntityDays})`,
          );
        }
        if (!this.attributesFailed) await store.recordVisibilitySync(listedAt);
      }
      if (
        progress.chunksWritten +
          progress.chunksDeleted +
          progress.chunksReanalysed >
        0
      ) {
        // Queries stay correct without it, only slower: a failure is logged, not the run's.
        await store
          .refreshIndexStatistics()
          .catch(e =>
            logger.warn(
              `ask-docs: could not refresh index statistics: ${errorMessage(
                e,
              )}`,
            ),
          );
      }
      if (!(await store.finishRun(runId, 'succeeded', progress))) {
        throw new RunTakenOverError(runId);
      }
      logger.info(
        `ask-docs: ingestion run ${runId} done: ${progress.entitiesDone} entities, ` +
          `${progress.pagesDone} pages (${progress.pagesSkipped} unchanged), ` +
          `${progress.chunksWritten} chunks written, ${progress.chunksEmbedded} embedded, ` +
          `${progress.chunksReanalysed} re-analysed, ${progress.chunksDeleted} deleted, ` +
          `${progress.errors.length} errors`,
      );
    } catch (e) {
      // The previous entity's last writes may still run: their errors belong to this record.
      await finishing;
      progress.errors.push({
        message: `run aborted${
          listingComplete ? '' : ' while listing entities'
        }: ${errorMessage(e)}`,
      });
      logger.error(
        `ask-docs: ingestion run ${runId} failed: ${errorMessage(e)}`,
      );
      await finishWithRetries(async () => {
        if (!(await store.finishRun(runId, 'failed', progress))) {
          logger.warn(
            `ask-docs: ingestion run ${runId} had been marked abandoned; that record stays`,
          );
        }
      }, logger);
      return { ...progress, failure: errorMessage(e) };
    }
    return progress;
  }

  /**
   * Hands the entity's pages to a writer. Resolves, once they are all handed over, with
   * `finished`: the entity's last writes, then the deletion of its stale pages.
   */
  private async ingestEntity(
    entity: Entity,
    progress: RunProgress,
    listedAt: Date,
    runId: number,
  ): Promise<{ finished: Promise<void> }> {
    const { store, embedder } = this.o;
    const row = entityRow(entity);
    progress.chunksDeleted += await store.deleteReplacedEntity(row, {
      asOf: listedAt,
      runId,
    });
    await store.upsertEntity(row, { asOf: listedAt }).catch(e => {
      this.attributesFailed = true;
      throw e;
    });
    // A newer listing wrote the row (the upsert left it): if it is another entity's, this one's
    // pages must not go under its attributes. The next run reads it.
    if (await store.storesAnotherEntity(row))
      throw new Error(
        'a newer catalog listing wrote another entity under this ref (another uid); ' +
          'the next run reads this one',
      );
    const states = await store.documentStates(row.entityRef, embedder.modelId);
    const keep = new Set<string>();
    const writer = new PageWriter(
      store,
      { modelId: embedder.modelId, dimension: embedder.dimension },
      undefined,
      { runId },
    );
    const errors = () =>
      progress.errors.filter(e => e.entityRef === row.entityRef).length;
    const errorsBefore = errors();
    let siteKey: SiteKey;
    try {
      siteKey = await this.ingestPages(
        entity,
        row,
        states,
        keep,
        writer,
        progress,
      );
    } catch (e) {
      await writer.flush();
      throw e;
    }
    // The last batch starts now; the pages the entity no longer has go once it is written.
    const finished = writer.flush().then(async () => {
      const stale = [...states.keys()].filter(id => !keep.has(id));
      progress.chunksDeleted += await store.deleteDocuments(stale, { runId });
      // Only a whole site read and written without an error lets the next run skip it.
      if (siteKey.read) {
        const whole = errors() === errorsBefore && !this.signal?.aborted;
        if (whole || siteKey.stored !== undefined)
          await store.setTechDocsSiteKey(
            row.entityRef,
            whole ? siteKey.read : undefined,
            { runId },
          );
      }
    });
    return { finished };
  }

  /**
   * What a site's pages are ingested from: its build and everything that makes chunks, keys and
   * vectors of them. Undefined for a site whose metadata names no build.
   */
  private siteKey(
    site: TechDocsSiteMetadata,
    row: EntityRow,
  ): string | undefined {
    if (!site.build) return undefined;
    // The values in effect, defaults resolved: a release that changes a default re-reads.
    return sha256Hex(
      JSON.stringify({
        build: site.build,
        siteName: site.siteName,
        pages: site.pages,
        parser: PARSER_VERSION,
        maxChunkChars: this.o.maxChunkChars ?? DEFAULT_MAX_CHUNK_CHARS,
        maxPageChars: this.o.maxPageChars ?? DEFAULT_MAX_PAGE_CHARS,
        analysis: this.signature,
        model: this.o.embedder.modelId,
        // The pages' portal links (an entity renamed in case only keeps its ref).
        docsPath: techDocsUrl(
          row,
          '',
          this.o.legacyUseCaseSensitiveTripletPaths,
        ),
      }),
    );
  }

  /**
   * The entity's catalog document and TechDocs pages, handed to `writer`. A site whose key is
   * the one its last whole ingestion recorded is not read: its pages are kept as they are.
   */
  private async ingestPages(
    entity: Entity,
    row: EntityRow,
    states: Map<string, StoredDocumentState>,
    keep: Set<string>,
    writer: PageWriter,
    progress: RunProgress,
  ): Promise<SiteKey> {
    // "Payments service (Component)": distinct from the title of the entity's TechDocs home page,
    // so the two can be cited separately (decision record 0003).
    const catalogDoc = entityToDocument(entity, {
      maxPageChars: this.o.maxPageChars,
    });
    catalogDoc.title = `${catalogDoc.title} (${entity.kind})`;
    keep.add(
      await this.ingestDocument(
        {
          entityRef: row.entityRef,
          sourceKind: 'catalog',
          pagePath: '',
          url: entityUrl(row.entityRef),
          revision: row.etag,
          page: catalogDoc,
        },
        states,
        progress,
        writer,
        this.failedWrite(progress, row.entityRef),
      ),
    );

    let site;
    try {
      site = await this.o.techdocs.getSite(entity);
    } catch (e) {
      // Keep the pages indexed before: the site may only be unreachable for a moment. A site
      // not found (or listing no pages) where none was indexed is no error: not built yet.
      const indexedBefore = [...states.keys()].some(id => !keep.has(id));
      if (!(e instanceof TechDocsSiteNotFoundError) || indexedBefore) {
        progress.errors.push({
          entityRef: row.entityRef,
          message: `TechDocs site unavailable: ${errorMessage(e)}${
            indexedBefore ? '; the pages indexed before are kept' : ''
          }`,
        });
      }
      for (const [id, _] of states) keep.add(id);
      site = undefined;
    }
    const read = site && this.siteKey(site, row);
    const stored =
      read === undefined
        ? undefined
        : await this.o.store.techDocsSiteKey(row.entityRef);
    const catalogId = documentIdFor(row.entityRef, 'catalog', '');
    const pagesStored = [...states.keys()].filter(id => id !== catalogId);
    // And every page as this run would leave it (vectors of the model, postings of the analysis):
    // a key that outlived a model's vectors (retired meanwhile) must not keep pages unsearchable.
    const pagesCurrent = pagesStored.every(id => {
      const state = states.get(id)!;
      return state.embedded && state.analysisSignature === this.signature;
    });
    if (
      site &&
      read !== undefined &&
      read === stored &&
      pagesStored.length &&
      pagesCurrent
    ) {
      for (const id of pagesStored) {
        keep.add(id);
        // Still titles of this index, for the duplicate warning of other entities' pages.
        const titleKey = states.get(id)!.title.trim().toLocaleLowerCase();
        if (!this.titles.has(titleKey)) this.titles.set(titleKey, id);
      }
      progress.pagesSkipped += pagesStored.length;
      progress.pagesDone += pagesStored.length;
      return { stored };
    }
    if (site) {
      // A site whose first pages all fail is down (its storage hangs or refuses): the rest is
      // not read, so one site cannot hold the run for hours; its pages keep what was indexed.
      let pagesRead = 0;
      let pagesFailed = 0;
      let notTried = 0;
      // Once down, down for the run: a page in flight that succeeds late does not reopen it.
      let down = false;
      const siteDown = () =>
        (down ||= pagesRead === 0 && pagesFailed >= SITE_DOWN_AFTER_FAILURES);
      await Promise.all(
        site.pages.map(pagePath =>
          this.limit(async () => {
            const documentId = documentIdFor(
              row.entityRef,
              'techdocs',
              pagePath,
            );
            try {
              // Whatever the reader: a path that leaves this entity's site is never fetched.
              resolveSitePagePath(pagePath);
              keep.add(documentId);
              // Not read, but still listed: kept. The run stops before the next entity.
              if (this.signal?.aborted) return;
              if (siteDown()) {
                notTried += 1;
                return;
              }
              let html: string;
              try {
                html = await this.o.techdocs.getPage(entity, pagePath);
              } catch (e) {
                pagesFailed += 1;
                throw e;
              }
              pagesRead += 1;
              const page = parseHtmlPage(html, {
                maxPageChars: this.o.maxPageChars,
                siteName: site!.siteName,
                fallbackTitle: pagePath,
              });
              await this.ingestDocument(
                {
                  entityRef: row.entityRef,
                  sourceKind: 'techdocs',
                  pagePath,
                  url: techDocsUrl(
                    row,
                    pageUrlPath(pagePath),
                    this.o.legacyUseCaseSensitiveTripletPaths,
                  ),
                  revision: site!.etag,
                  page,
                },
                states,
                progress,
                writer,
                this.failedWrite(progress, row.entityRef, pagePath),
              );
            } catch (e) {
              if (e instanceof RefusedPagePathError) {
                // Not kept: whatever an older version indexed under this path is deleted.
                keep.delete(documentId);
                this.o.logger.warn(
                  `ask-docs: ${row.entityRef}: ${e.message}; page not indexed`,
                );
              }
              const page = printablePagePath(pagePath);
              progress.errors.push({
                entityRef: row.entityRef,
                page,
                message: errorMessage(e),
              });
            }
          }),
        ),
      );
      if (notTried > 0) {
        progress.errors.push({
          entityRef: row.entityRef,
          message:
            `TechDocs site unavailable: ${pagesFailed} of its pages failed before one was ` +
            `read, so its other ${notTried} were not read; the pages indexed before are kept`,
        });
      }
    }
    return { read, stored };
  }

  /** Records a page's failed write (a catalog document's without a page). */
  private failedWrite(
    progress: RunProgress,
    entityRef: string,
    pagePath?: string,
  ) {
    return (e: unknown) =>
      progress.errors.push({
        entityRef,
        ...(pagePath === undefined
          ? {}
          : { page: printablePagePath(pagePath) }),
        message: errorMessage(e),
      });
  }

  /**
   * Returns the document id once the page is handed to `writer`; the write's result updates
   * `progress`, its failure goes to `onWriteError`.
   */
  private async ingestDocument(
    input: DocumentInput,
    states: Map<string, StoredDocumentState>,
    progress: RunProgress,
    writer: PageWriter,
    onWriteError: (e: unknown) => void,
  ): Promise<string> {
    const { store, embedder, analyzers, languages } = this.o;
    const documentId = documentIdFor(
      input.entityRef,
      input.sourceKind,
      input.pagePath,
    );
    // What the chunks are made from, not the text alone: anchors, sections, chunk size, parser.
    const contentHash = pageSignature(input.page, {
      maxChunkChars: this.o.maxChunkChars,
    });
    const state = states.get(documentId);
    // A rebuilt site has a new etag, but a page whose chunks would not change keeps the revision
    // it was last changed in: answers citing it are not reported as outdated. A page whose
    // postings were made by another analysis (a new dictionary, say) is not skipped: its keys are
    // rebuilt.
    if (
      state &&
      state.contentHash === contentHash &&
      // The signature leaves out the title (a <title> or site name change): its chunks' paths.
      state.title === input.page.title &&
      // And where its citations link (techdocs.legacyUseCaseSensitiveTripletPaths changed).
      state.url === input.url &&
      state.embedded &&
      state.analysisSignature === this.signature
    ) {
      progress.pagesSkipped += 1;
      progress.pagesDone += 1;
      return documentId;
    }

    const notes = [...input.page.notes];
    const titleKey = input.page.title.trim().toLocaleLowerCase();
    const firstWithTitle = this.titles.get(titleKey);
    if (firstWithTitle && firstWithTitle !== documentId) {
      notes.push('duplicate-title');
      this.o.logger.warn(
        `ask-docs: duplicate document title "${input.page.title}" (${
          input.entityRef
        } ${input.pagePath || '(catalog)'}); ` +
          'answers disambiguate it by entity name',
      );
    } else {
      this.titles.set(titleKey, documentId);
    }

    const lang = detectLanguage(input.page.text, languages);
    const chunks = chunkSections(input.page, {
      documentId,
      maxChars: this.o.maxChunkChars,
    });
    const writes: ChunkWrite[] = chunks.map(c => {
      const analysis = analyzeText(
        `${c.sectionPath}\n${c.text}`,
        lang,
        analyzers,
      );
      return {
        chunkId: c.chunkId,
        ordinal: c.ordinal,
        title: input.page.title,
        sectionPath: c.sectionPath,
        anchor: c.anchor,
        charStart: c.charStart,
        charEnd: c.charEnd,
        text: c.text,
        contentHash: c.contentHash,
        lang,
        termCount: analysis.tokenCount,
        terms: analysis.terms,
      };
    });

    const embedded = await store.embeddedChunkHashes(
      documentId,
      embedder.modelId,
    );
    // An embedder whose vectors come from the keyword analysis (the hashing fallback's v2) embeds
    // a page again when the analysis changed, even if its text did not. (It analyses a text in
    // every configured language, so a page whose language changed keeps its vectors.)
    const reembed =
      embedder.dependsOnAnalysis === true &&
      state !== undefined &&
      state.analysisSignature !== this.signature;
    const toEmbed = chunks.filter(
      c => reembed || embedded.get(c.chunkId) !== c.contentHash,
    );
    const vectors = new Map<string, number[]>();
    if (toEmbed.length > 0) {
      const out = await embedder.embedPassages(
        toEmbed.map(c => `${c.sectionPath}\n${c.text}`),
      );
      toEmbed.forEach((c, i) => vectors.set(c.chunkId, out[i]));
      this.pagesEmbedded += 1;
    }

    // Written again with the same chunk texts (a renamed anchor, a new chunk size that cut the
    // same, another analysis): answers citing it are not outdated, so it keeps its revision.
    // By content hash in page order, not chunk id: a section's id follows its key, which may be
    // its anchor. Any model's chunks: a new embedder does not change the text.
    const stored = state ? await store.chunkContentHashes(documentId) : [];
    const sameText =
      state !== undefined &&
      stored.length === chunks.length &&
      chunks.every((c, i) => c.contentHash === stored[i]);
    const doc: DocumentRow = {
      documentId,
      entityRef: input.entityRef,
      sourceKind: input.sourceKind,
      pagePath: input.pagePath,
      title: input.page.title,
      url: input.url,
      lang,
      revision: sameText ? state.revision : input.revision,
      contentHash,
      textLength: input.page.text.length,
      note: notes.length ? notes.join('; ') : undefined,
      analysisSignature: this.signature,
    };
    await writer.add(
      { doc, chunks: writes, vectors },
      result => {
        progress.pagesDone += 1;
        progress.chunksWritten += result.chunksWritten;
        progress.chunksDeleted += result.chunksDeleted;
        progress.chunksReanalysed += result.chunksReanalysed;
        progress.chunksEmbedded += vectors.size;
      },
      onWriteError,
    );
    return documentId;
  }
}

/**
 * The scheduler's task: a run that stops before its end fails the task, so the scheduler (and
 * whatever watches it) sees the failure the run record holds. A run going on at another instance
 * is no failure here.
 */
export function scheduledIngestion(
  ingester: Pick<Ingester, 'run'>,
  logger: LoggerService,
): (signal: AbortSignal) => Promise<void> {
  return async signal => {
    const result = await ingester.run('schedule', { signal }).catch(e => {
      if (!(e instanceof IngestionRunningElsewhereError)) throw e;
      logger.info(`ask-docs: ${e.message}`);
      return undefined;
    });
    if (result?.failure)
      throw new Error(`ask-docs ingestion run failed: ${result.failure}`);
  };
}

/** Another backend instance holds the run; nothing was done here. */
export class IngestionRunningElsewhereError extends Error {
  constructor(readonly runId: number) {
    super(
      `ingestion run ${runId} is in progress on another backend instance; ` +
        'this start leaves it to that one',
    );
    this.name = 'IngestionRunningElsewhereError';
  }
}

/** The run's signal was aborted: the task's timeout passed, an admin cancelled it, or stop(). */
export class IngestionCancelledError extends Error {
  constructor(readonly runId: number) {
    super(
      `ingestion run ${runId} was cancelled (the scheduler's timeout or cancellation, or the ` +
        'backend stopping); the entities not reached keep what was indexed before',
    );
    this.name = 'IngestionCancelledError';
  }
}

/** Renews a run's lease while the run makes progress, and stops the run once it was lost. */
class RunHeartbeat {
  private readonly timer: ReturnType<typeof setInterval>;
  private lastActivity = -1;
  private unconditional = false;

  constructor(
    private readonly store: AskDocsStore,
    private readonly runId: number,
    lease: RunLease,
    private readonly logger: LoggerService,
    progress: RunProgress,
    /** Work done that progress does not count yet (pages embedded, their batch not written). */
    pending: () => number,
    private readonly signal?: AbortSignal,
  ) {
    this.timer = setInterval(() => {
      const activity =
        progress.pagesDone +
        progress.entitiesDone +
        progress.errors.length +
        pending();
      if (activity === this.lastActivity && !this.unconditional) return;
      this.lastActivity = activity;
      // A lost lease shows at the next renew(), before the next entity. The progress goes with
      // it: a site of thousands of pages is one entity, and the panel would show it frozen.
      this.renew()
        .then(() => store.updateRun(runId, progress))
        .catch(() => {});
    }, lease.heartbeatMs);
    this.timer.unref?.();
  }

  /**
   * Before each next step: throws IngestionCancelledError once the run's signal is aborted, and
   * RunTakenOverError when another instance marked the run abandoned (renewing the lease).
   */
  async proceed(): Promise<void> {
    if (this.signal?.aborted) throw new IngestionCancelledError(this.runId);
    await this.renew();
  }

  /**
   * Renews the lease; throws RunTakenOverError when another instance marked the run abandoned.
   * The timer renews it also after a cancellation, while the run finishes what it started.
   */
  async renew(): Promise<void> {
    let alive = true;
    try {
      alive = await this.store.heartbeatRun(this.runId);
    } catch (e) {
      // A database out of reach fails the run's own writes; the lease is lost only when
      // another instance has marked the run abandoned.
      this.logger.warn(
        `ask-docs: ingestion heartbeat failed: ${errorMessage(e)}`,
      );
    }
    if (!alive) throw new RunTakenOverError(this.runId);
  }

  /** The run's bounded last steps (deletes, statistics): renewed on every tick from here. */
  finishing(): void {
    this.unconditional = true;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** A run left 'running' would show as running until the next one; try a few times. */
async function finishWithRetries(
  finish: () => Promise<void>,
  logger: LoggerService,
) {
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      await finish();
      return;
    } catch (e) {
      if (attempt === 3)
        logger.error(
          `ask-docs: could not record the end of an ingestion run: ${errorMessage(
            e,
          )}`,
        );
      else await new Promise(r => setTimeout(r, 1000 * 2 ** attempt));
    }
  }
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
