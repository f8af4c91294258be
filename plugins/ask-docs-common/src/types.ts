/** Wire types shared by the Ask the docs frontend, backend and node library. */

/** What an answer turned out to be. */
export type AnswerStatus =
  /** The model answered and cited at least one retrieved-and-sent document. */
  | 'answered'
  /** Nothing relevant passed the relevance filter; the model was not called. */
  | 'not_in_knowledge_base'
  /** The model was unavailable or gave no usable citation; the evidence is shown instead. */
  | 'evidence_only';

/**
 * Why a response holds no grounded model answer, for a client that words it itself (a
 * translated UI, an agent); `notice` says it in English.
 */
export type NoticeReason =
  /** not_in_knowledge_base: no passage the asker may read answers it; the model was not asked. */
  | 'no_evidence'
  /** not_in_knowledge_base: the model read the passages and found no answer in them. */
  | 'model_found_no_answer'
  /** evidence_only: no language model is configured. */
  | 'no_model'
  /** evidence_only: the model call failed (timeout, error, refused request). */
  | 'model_failed'
  /** evidence_only: not even the best passage fits what may be sent to the model. */
  | 'context_too_large'
  /** evidence_only: the model's text cited no passage it was sent, so it is not shown. */
  | 'uncited_answer'
  /** evidence_only: the passages the model cited do not support its text. */
  | 'unsupported_answer'
  /** evidence_only: the asker used their model quota (askDocs.llm.quotaPerUser). */
  | 'quota_exceeded';

/** A per-user model quota (askDocs.llm.quotaPerUser): calls within a sliding window. */
export interface ModelQuota {
  calls: number;
  windowSeconds: number;
}

/** Every NoticeReason, once each (the record's type makes a missing or extra one an error). */
export const NOTICE_REASONS = Object.keys({
  no_evidence: true,
  model_found_no_answer: true,
  no_model: true,
  model_failed: true,
  context_too_large: true,
  uncited_answer: true,
  unsupported_answer: true,
  quota_exceeded: true,
} satisfies Record<NoticeReason, true>) as [NoticeReason, ...NoticeReason[]];

export interface AskScope {
  /** Restrict retrieval to documents of these entities (e.g. "component:default/payments"). */
  entityRefs?: string[];
}

export interface AskRequest {
  question: string;
  scope?: AskScope;
  /**
   * Follow-up: the id of the PREVIOUS answer in the thread (the last AskResponse.id). The
   * backend reads up to three earlier turns of the asker's own answers from there, each as the
   * asker may see it now; an unknown id or another principal's answer is ignored.
   */
  threadId?: string;
}

/**
 * A passage of the knowledge index: the one chunk shape. Ingestion writes it, the store keeps
 * it, retrieval reads it back, answers cite it, the evaluation and benchmarks build it; a stage
 * that has fewer fields uses a Pick<> of it. It is declared here, not in the backend, because
 * the sources and evidence the frontend shows (below) are views of it.
 */
export interface IndexedChunk {
  /** Stable id: hash of the document id, the section key and the position in the section. */
  chunkId: string;
  documentId: string;
  /** The entity whose document this is; visibility is decided on it. */
  entityRef: string;
  /** The document title, as it appears in an answer's [Title] markers. */
  title: string;
  /** 'Title › Section › Subsection'. */
  sectionPath: string;
  /** URL fragment of the section ('' = top of the page). */
  anchor: string;
  /** Link into the portal: the TechDocs page at the section anchor, or the entity page. */
  url: string;
  text: string;
  /** The document's revision (TechDocs etag of the build in which its text last changed). */
  revision: string;
  /** sha256 of sectionPath + '\n' + text: what an embedding was computed from. */
  contentHash: string;
  /** Position of the chunk in its page (0-based). */
  ordinal: number;
  /** Offsets into the page text. */
  charStart: number;
  charEnd: number;
  /** Language the page was analysed in ('en', 'cs'). */
  lang: string;
}

/** The fields that identify, locate and cite a chunk. */
export type ChunkCitationFields =
  | 'chunkId'
  | 'documentId'
  | 'entityRef'
  | 'title'
  | 'sectionPath'
  | 'anchor'
  | 'url'
  | 'revision';

/** A chunk as retrieval returns it and the answer step reads it: citable, with its text. */
export type ChunkPassage = Pick<
  IndexedChunk,
  ChunkCitationFields | 'text' | 'contentHash'
>;

/** A cited document: one per document, represented by its best-ranked cited chunk. */
export interface AnswerSource extends Pick<IndexedChunk, ChunkCitationFields> {
  snippet: string;
  /**
   * The answer's markers that cite this document, each with where it points: the cited
   * section's anchor, or the page when the section matched no passage sent to the model.
   * Clients link markers by these labels, so they never resolve titles themselves. Absent
   * on answers stored before it existed.
   */
  citations?: SourceCitation[];
}

/** One marker label of an answer (as the model wrote it) and the portal path it points at. */
export interface SourceCitation {
  label: string;
  url: string;
}

/** A retrieved chunk shown when there is no model answer. */
export interface EvidenceChunk extends Pick<IndexedChunk, ChunkCitationFields> {
  snippet: string;
  score: number;
}

export interface AskResponse {
  /** Audit record id: GET /answers/:id replays it. */
  id: string;
  status: AnswerStatus;
  /** True only when the text is a model answer backed by cited sources. */
  grounded: boolean;
  /** Answer text with [Title] markers, or the fixed not-in-KB / evidence-only label. */
  answer: string;
  sources: AnswerSource[];
  /** Retrieved passages, filled when status is 'evidence_only'. */
  evidence: EvidenceChunk[];
  /** Human-readable explanation for non-answers (e.g. "The model is unavailable..."). */
  notice?: string;
  /** Set whenever status is not 'answered' (absent on records stored before it existed). */
  reason?: NoticeReason;
  /** With reason 'quota_exceeded': the limit the asker reached, for a client to word it. */
  quota?: ModelQuota;
  /** Spelling corrections applied to the question, from the asker's own visible vocabulary. */
  corrections?: Array<{ from: string; to: string }>;
  llmModel?: string;
  embeddingModel: string;
  createdAt: string;
}

/** A stored answer read back later. */
export interface AnswerRecord extends AskResponse {
  question: string;
  userRef: string;
  scope: AskScope;
  /** Cited documents that have been re-ingested with a newer revision since. */
  outdatedSources: Array<{
    documentId: string;
    title: string;
    answeredRevision: string;
    currentRevision: string | null;
  }>;
  feedback?: AnswerFeedback;
  /** The previous answer this one followed up on (AskRequest.threadId, when it was used). */
  threadId?: string;
  /**
   * The plugin that asked on the user's behalf (the token's actor, e.g. `plugin:my-plugin`,
   * through `@askdocs/plugin-ask-docs-node`); absent when the user asked directly.
   */
  askedVia?: string;
  /**
   * Present when the reader can no longer see some of the documents this answer used; `notice`
   * is then REDACTED_NOTICE.
   */
  redacted?: AnswerRedaction;
}

/** What of a stored answer was left out for its current reader. */
export interface AnswerRedaction {
  /** Cited sources left out. */
  sources: number;
  /** Evidence passages left out. */
  evidence: number;
  /** Spelling corrections left out (the suggested word is no longer in the reader's vocabulary). */
  corrections: number;
  /** The model's text was replaced by REDACTED_ANSWER_TEXT: it drew on a hidden document. */
  answerText: boolean;
  /**
   * Entity refs of the question's scope left out: a reader other than the asker (an auditor)
   * sees only the refs of entities they may see.
   */
  scope?: number;
}

export interface AnswerFeedback {
  rating: 'up' | 'down';
  comment?: string;
}

/** Events of the streaming endpoint (text/event-stream). */
export type AskStreamEvent =
  | { type: 'status'; phase: 'retrieving' | 'generating' }
  | { type: 'delta'; text: string }
  | { type: 'done'; response: AskResponse }
  /**
   * A generic message; `requestId` finds the details in the server's logs. Without one, a
   * message for the user (the backend stopped while answering: ask again).
   */
  | { type: 'error'; message: string; requestId?: string };

export interface IngestionProgress {
  runId: number | null;
  status: 'idle' | 'running' | 'succeeded' | 'failed';
  trigger?: 'schedule' | 'manual';
  startedAt?: string;
  finishedAt?: string;
  entitiesDone: number;
  pagesDone: number;
  pagesSkipped: number;
  chunksWritten: number;
  chunksEmbedded: number;
  chunksDeleted: number;
  /** Unchanged chunks whose keyword postings were rebuilt because the language analysis changed. */
  chunksReanalysed: number;
  errors: Array<{ entityRef?: string; page?: string; message: string }>;
}

/** The reply to POST /v1/ingestion/runs. */
export interface IngestionRunStarted {
  /** False when a run was already in progress (the request joined it). */
  started: boolean;
  running: boolean;
  /** The run to follow in the ingestion progress (absent if its record is not there yet). */
  runId?: number;
}

/**
 * Why the language model could not answer; `rejected` (bad key, unknown model) needs an admin,
 * and so does `context_too_large` (the model refused a prompt longer than its context window:
 * askDocs.answer.maxContextChars and askDocs.llm.maxTokens together are above what it takes).
 */
export type ModelFailureReason =
  | 'timeout'
  | 'rate_limited'
  | 'server_error'
  | 'connection'
  | 'bad_response'
  | 'incomplete'
  | 'context_too_large'
  | 'rejected'
  /** Not called: it failed every call for a while, and is tried again after a pause. */
  | 'circuit_open';

/**
 * `GET /health`: only `status` for an anonymous caller (a load balancer's probe); the rest for a
 * signed-in one.
 */
export interface HealthResponse {
  status: 'ok';
  embedder?: {
    modelId: string;
    kind: 'transformers' | 'hashing-fallback';
    dimension: number;
    note?: string;
  };
  llm?: {
    configured: boolean;
    model?: string;
    /** Why the last model call failed after its retries, until one succeeds (the log has more). */
    lastFailure?: { reason: ModelFailureReason; at: string };
  };
  languages?: string[];
  /**
   * The visibility attributes' freshness guard (`askDocs.visibilitySync`): when the last
   * complete catalog listing started, the bound (absent: the guard is off), and whether it is
   * exceeded; then nothing is visible and asks answer 503.
   */
  visibility?: {
    lastSyncAt?: string;
    maxStalenessSeconds?: number;
    stale: boolean;
  };
  /** The optional cross-encoder reranker; absent when none is configured. */
  reranker?: {
    modelId: string;
    /** False when it could not be loaded: chunks keep the fused order (`note` says why). */
    loaded: boolean;
    candidates: number;
    note?: string;
  };
}

/** Shown (as answer and notice) when the model answered without citing any sent document. */
export const UNCITED_ANSWER_NOTICE =
  "Not an answer: the model's answer cited no retrieved document, so it is not shown. " +
  'These are the most relevant passages from the documentation.';
/** Shown when claim verification rejected every cited document. */
export const UNSUPPORTED_ANSWER_NOTICE =
  'Not an answer: the passages the model cited do not support its answer, so it is not shown. ' +
  'These are the most relevant passages from the documentation.';
/** Shown when not even the best passage fits the context budget. */
export const CONTEXT_TOO_LARGE_NOTICE =
  'Not an answer: the relevant passages are too long to send to the language model. These are ' +
  'the most relevant passages from the documentation.';
/** Notice when the model itself reported that the passages do not contain the answer. */
export const MODEL_FOUND_NO_ANSWER_NOTICE =
  'The passages retrieved for this question do not contain the answer.';

/** The fixed reply when the knowledge base has no evidence. */
export const NOT_IN_KNOWLEDGE_BASE_ANSWER =
  'This is not in the knowledge base. No document you can see answers this question.';

/** The label shown instead of an answer when only evidence can be given. */
export const EVIDENCE_ONLY_NOTICE =
  'Not an answer: the language model is unavailable. These are the most relevant passages from ' +
  'the documentation.';

/** Replaces the text of a stored answer that drew on documents the reader can no longer see. */
export const REDACTED_ANSWER_TEXT =
  'This answer is hidden: it was based on documents you can no longer see.';

/** Says that parts of a stored answer were left out because of the reader's current access. */
export const REDACTED_NOTICE =
  'Parts of this answer are hidden because you can no longer see some of the documents it used.';

/**
 * Whether `id` has the form of an answer id (a UUID). Anything else is no answer's, and in a
 * path could name another endpoint once the URL is normalised ('', '.': the history list).
 */
export function isAnswerId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(
    id,
  );
}

/**
 * The message of the 404 for an answer id the caller cannot read (unknown, someone else's, or
 * expired). Clients tell it from a 404 of a missing route or plugin by this message.
 */
export const noAnswerMessage = (id: string) => `No answer ${id}`;
