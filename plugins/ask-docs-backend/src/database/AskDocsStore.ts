import type { TermCount } from '../language/types';
import { AskDocsEntityAttributes, Visibility } from '../permissions';
import {
  AnswerFeedback,
  AnswerSource,
  AskScope,
  EvidenceChunk,
  IndexedChunk,
  IngestionProgress,
  ModelQuota,
  NoticeReason,
} from '@askdocs/plugin-ask-docs-common';

/** Visibility attributes of a source entity (what permission rules query), as stored. */
export interface EntityRow extends Omit<AskDocsEntityAttributes, 'spec'> {
  spec: Record<string, unknown>;
  etag: string;
  /** The catalog's `metadata.uid`: another uid under the same ref is another entity. */
  uid?: string;
}

export interface DocumentRow {
  documentId: string;
  entityRef: string;
  sourceKind: 'techdocs' | 'catalog';
  pagePath: string;
  title: string;
  url: string;
  lang: string;
  revision: string;
  /** What the chunks were made from (pageSignature), not the text alone: unchanged, skipped. */
  contentHash: string;
  textLength: number;
  note?: string;
  /** Signature of the language analysis that made the chunks' postings (analysisSignature()). */
  analysisSignature?: string;
}

/** A chunk of one document as ingestion writes it; the document gives the other fields. */
export interface ChunkWrite
  extends Omit<IndexedChunk, 'documentId' | 'entityRef' | 'url' | 'revision'> {
  termCount: number;
  /** Keyword keys with tf, as the language module analysed them. */
  terms: TermCount[];
}

export interface StoredDocumentState {
  contentHash: string;
  /** The title its chunks were written with (in every "Title › Section" path). */
  title: string;
  /** The portal path its chunks link to (TechDocs' path casing can change it). */
  url: string;
  revision: string;
  /** Whether every chunk has a vector of the current model. */
  embedded: boolean;
  /**
   * Analysis signature of the stored postings; null when unknown (indexed before it was
   * recorded).
   */
  analysisSignature: string | null;
}

/** The counters of an ingestion run, as the API reports them. */
export type RunProgress = Omit<
  IngestionProgress,
  'runId' | 'status' | 'trigger' | 'startedAt' | 'finishedAt'
>;

/** The outcome of asking to start a run: ours (`started`), or the one already running. */
export interface RunStart {
  runId: number;
  started: boolean;
}

/**
 * The run lost its lease: another backend instance found it silent and marked it abandoned, and
 * may be running its own. The run stops rather than overlap with that one.
 */
export class RunTakenOverError extends Error {
  constructor(runId: number) {
    super(
      `run ${runId} was marked abandoned (no heartbeat reached the database in time); ` +
        'it stopped so as not to overlap with a run another instance may have started',
    );
    this.name = 'RunTakenOverError';
  }
}

/** One page to write: its document row, its chunks and the vectors of those re-embedded. */
export interface PageWrite {
  doc: DocumentRow;
  chunks: ChunkWrite[];
  vectors: Map<string, number[]>;
}

/** What replacing one document changed. */
export type ReplacedDocument = Pick<
  RunProgress,
  'chunksWritten' | 'chunksDeleted' | 'chunksReanalysed'
>;

/**
 * A retrieved chunk in the audit record: enough to replay it, from ask_docs_chunks while its text
 * is current, from ask_docs_chunk_versions once superseded.
 */
export interface RetrievedChunkAudit
  extends Pick<
    IndexedChunk,
    | 'chunkId'
    | 'documentId'
    | 'title'
    | 'sectionPath'
    | 'revision'
    | 'contentHash'
  > {
  rank: number;
  scores: Record<string, number | null>;
  sent: boolean;
}

/**
 * The status of a record of an ask whose asker went away while the model answered: kept for
 * the audit (the model was called with the documents, and part of its text may have been
 * shown), never read back as an answer.
 */
export const ABANDONED_STATUS = 'abandoned';

export interface AnswerWrite {
  id: string;
  userRef: string;
  /** The plugin that asked on the user's behalf (the credentials' actor), if any. */
  askedVia?: string;
  question: string;
  scope: AskScope;
  /** An AskResponse status, or ABANDONED_STATUS. */
  status: string;
  grounded: boolean;
  policy: unknown;
  retrieved: RetrievedChunkAudit[];
  embeddingModel: string;
  llmModel?: string;
  rawOutput?: string;
  answer: string;
  sources: AnswerSource[];
  evidence: EvidenceChunk[];
  notice?: string;
  reason?: NoticeReason;
  quota?: ModelQuota;
  corrections?: Array<{ from: string; to: string }>;
  /** The previous answer of the same asker this one followed up on. */
  threadId?: string;
  /**
   * With a threadId: the documents whose text may be in the earlier answers its prompt carried
   * (those they cited or were sent, and their own threadDocumentIds), so replay can withhold a
   * follow-up that repeats what the reader may no longer see, even after those answers expire.
   */
  threadDocumentIds?: string[];
}

export interface StoredAnswer extends AnswerWrite {
  createdAt: string;
  feedback?: AnswerFeedback;
}

/** Persistence of the knowledge index, ingestion runs and the answer audit log. */
/** The last complete catalog listing of visibility attributes (docs/architecture.md). */
export interface VisibilitySyncState {
  /** Start of the last complete successful listing (sync or ingestion run). */
  lastSuccessAt?: Date;
  /** The plugin's bound; undefined: the freshness guard is off. */
  maxStalenessSeconds?: number;
  /** The guard is on and the attributes are older than it allows: nothing is visible. */
  stale: boolean;
}

export interface AskDocsStore {
  /**
   * Writes an entity row. `asOf` is the start of the listing the entity came from (database
   * time, default now): a row written from a newer listing is left as it is.
   */
  upsertEntity(entity: EntityRow, options?: { asOf?: Date }): Promise<void>;
  /** The database's clock: listing times are compared with it, never with the backend's. */
  databaseNow(): Promise<Date>;
  /**
   * Rewrites the visibility attributes of stored entities whose attributes hash differs (and
   * shows hidden ones again); never inserts rows or touches documents, chunks or vectors.
   * Returns the number of rows changed.
   */
  syncEntityAttributes(entities: EntityRow[], asOf: Date): Promise<number>;
  /** Hides stored entities missing from a complete listing started at `asOf`; returns how many. */
  hideEntitiesNotListed(listedRefs: string[], asOf: Date): Promise<number>;
  /** Stored entities hidden since `noLaterThan` or earlier. */
  entitiesHiddenSince(noLaterThan: Date): Promise<string[]>;
  /** Records a complete successful listing started at `asOf`. */
  recordVisibilitySync(asOf: Date): Promise<void>;
  /** Turns the freshness guard on with this bound, or off with undefined. */
  configureVisibilityFreshness(
    maxStalenessSeconds: number | undefined,
  ): Promise<void>;
  visibilitySyncState(): Promise<VisibilitySyncState>;
  listEntityRefs(): Promise<string[]>;
  /**
   * Deletes the stored entity under `e`'s ref (documents, chunks, vectors, postings) when the
   * catalog now lists another entity there: another uid and other visibility attributes (one
   * deleted and registered again by another owner must not see the old one's docs). Not a row a
   * listing newer than `asOf` wrote; with `runId`, only while that run is running (as
   * deleteEntities). Returns the chunks deleted.
   */
  deleteReplacedEntity(
    e: EntityRow,
    guard: { asOf: Date; runId?: number },
  ): Promise<number>;
  /** Whether the row stored under `e`'s ref is another entity's (as deleteReplacedEntity). */
  storesAnotherEntity(e: EntityRow): Promise<boolean>;
  /**
   * Deletes the entities with their documents, chunks, vectors and postings. With `guard`, only
   * while the run is still running (else RunTakenOverError, nothing deleted), and not an entity
   * a listing newer than `listedAt` wrote.
   */
  deleteEntities(
    entityRefs: string[],
    guard?: { runId: number; listedAt: Date },
  ): Promise<number>;
  documentStates(
    entityRef: string,
    modelId: string,
  ): Promise<Map<string, StoredDocumentState>>;
  /** What the entity's TechDocs site was last ingested from in full (Ingester's site key). */
  techDocsSiteKey(entityRef: string): Promise<string | undefined>;
  /**
   * Records it after a run ingested the whole site without an error; undefined clears it. With
   * `guard`, only while the run is running (RunTakenOverError otherwise): a run taken over must
   * not name its build for the pages a newer run wrote.
   */
  setTechDocsSiteKey(
    entityRef: string,
    key: string | undefined,
    guard?: { runId: number },
  ): Promise<void>;
  /** The content hashes of a document's current chunks, in page order (any model). */
  chunkContentHashes(documentId: string): Promise<string[]>;
  /** Chunk ids whose current text already has a vector of this model. */
  embeddedChunkHashes(
    documentId: string,
    modelId: string,
  ): Promise<Map<string, string>>;
  /**
   * Replaces one document's chunks in a single transaction, so readers never see half a page.
   * `vectors` holds the new vectors by chunk id; chunks absent from it keep theirs. When the
   * stored analysis signature or language differs from the document's, the postings of
   * unchanged chunks are rebuilt too (counted in `chunksReanalysed`).
   */
  replaceDocument(
    doc: DocumentRow,
    chunks: ChunkWrite[],
    vectors: Map<string, number[]>,
    model: { modelId: string; dimension: number },
  ): Promise<ReplacedDocument>;
  /**
   * replaceDocument for several pages in one transaction (results in the same order): the
   * posting lists their keys share are rewritten once for the batch. With `guard`, only while
   * the run is running (RunTakenOverError otherwise), as deleteEntities.
   */
  replaceDocuments(
    pages: PageWrite[],
    model: { modelId: string; dimension: number },
    guard?: { runId: number },
  ): Promise<ReplacedDocument[]>;
  /** Deletes the documents; with `guard`, only while the run is running (as deleteEntities). */
  deleteDocuments(
    documentIds: string[],
    guard?: { runId: number },
  ): Promise<number>;
  /**
   * Records the embedding model this instance runs, and that it is in use now. Throws when the
   * id is registered with another dimension (other files under the same id).
   */
  registerModel(model: {
    modelId: string;
    dimension: number;
    kind: string;
  }): Promise<void>;
  /**
   * Deletes the vectors, HNSW index and registration of every model not registered for
   * `unusedDays` (database time), except those in `keep` (the caller's own, and the one it is
   * configured with): the vectors of a model no instance runs any more. What went, by model.
   */
  retireUnusedModels(options: {
    unusedDays: number;
    keep: readonly string[];
  }): Promise<Array<{ modelId: string; vectors: number }>>;
  /**
   * Refreshes planner statistics and visibility maps of the index tables after a run changed
   * them, so keyword lookups are index-only scans and plans fit the new sizes.
   */
  refreshIndexStatistics(): Promise<void>;

  /**
   * Records a new run, unless one is running (on this or another backend instance): then that
   * run's id, not started. A 'running' run without a heartbeat for `staleAfterMs` is abandoned
   * first (marked failed), so a stopped instance does not block ingestion for good.
   */
  startRun(
    trigger: 'schedule' | 'manual',
    staleAfterMs: number,
  ): Promise<RunStart>;
  /** Marks 'running' runs without a heartbeat for `staleAfterMs` as failed. */
  failAbandonedRuns(staleAfterMs: number): Promise<number>;
  /** The run's instance is alive; false when the run is no longer running (taken over). */
  heartbeatRun(runId: number): Promise<boolean>;
  /** Saves progress (and is a heartbeat) while the run is running. */
  updateRun(runId: number, progress: RunProgress): Promise<void>;
  /** False, and nothing written, when the run was no longer running (marked abandoned). */
  finishRun(
    runId: number,
    status: 'succeeded' | 'failed',
    progress: RunProgress,
  ): Promise<boolean>;
  latestRun(): Promise<
    | (RunProgress & {
        runId: number;
        status: string;
        trigger: string;
        startedAt: string;
        finishedAt?: string;
      })
    | undefined
  >;

  /** Returns the record's time as the database set it (ISO 8601), the one replay shows. */
  insertAnswer(answer: AnswerWrite): Promise<{ createdAt: string }>;
  /** Answers only: never a record of an ask the asker abandoned (ABANDONED_STATUS). */
  getAnswer(id: string): Promise<StoredAnswer | undefined>;
  /** Newest first; with `before` (an answer id of the user's) only those older than it. */
  listAnswers(
    userRef: string,
    page: { limit: number; before?: string },
  ): Promise<StoredAnswer[]>;
  setFeedback(id: string, feedback: AnswerFeedback): Promise<void>;
  /**
   * How many of this principal's recorded asks called the model in the last `withinSeconds`
   * (database time), abandoned ones included, failed ones only when the model may have
   * generated text (a timeout, an answer cut off): what a model quota counts.
   */
  countModelCalls(userRef: string, withinSeconds: number): Promise<number>;
  deleteAnswersBefore(date: Date): Promise<number>;
  /**
   * Deletes chunk versions superseded before `supersededBefore`, except those an answer created
   * at or after `keepAnswersSince` retrieved (by chunk id and content hash). Current texts live
   * in the chunk rows, which this never touches. Returns the number deleted.
   */
  deleteChunkVersions(options: {
    supersededBefore: Date;
    keepAnswersSince: Date;
  }): Promise<number>;
  /**
   * Current revision of each document the reader may still see (null when it no longer exists
   * or is no longer visible): even revision ids go through the visibility predicate.
   */
  currentRevisions(
    documentIds: string[],
    visibility: Visibility,
  ): Promise<Map<string, string | null>>;
  /** Which of these entities (refs compared lower-case, returned so) the reader may see. */
  visibleEntityRefs(
    entityRefs: string[],
    visibility: Visibility,
  ): Promise<Set<string>>;
}
