import {
  BackstageCredentials,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  InputError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import {
  AnswerFeedback,
  AnswerSource,
  AnswerRecord,
  AskRequest,
  AskResponse,
  askDocsAskPermission,
  askDocsAuditReadPermission,
  ModelFailureReason,
  noAnswerMessage,
  REDACTED_ANSWER_TEXT,
  REDACTED_NOTICE,
} from '@askdocs/plugin-ask-docs-common';
import { randomUUID } from 'crypto';
import {
  AnswerAbortedError,
  AnswerOptions,
  AnswerResult,
  ChatModel,
  ConversationTurn,
} from '../answer';
import {
  ABANDONED_STATUS,
  AnswerWrite,
  AskDocsStore,
  RetrievedChunkAudit,
  StoredAnswer,
} from '../database/AskDocsStore';
import type { KnowledgeIndex } from '../database/IndexReader';
import { Embedder } from '../embedding';
import type { Reranker } from '../embedding/reranker';
import type { AskDocsMetrics } from '../metrics';
import { Analyzers } from '../language';
import { resolveVisibility, Visibility } from '../permissions';
import { AskDocsAuthorizer } from './authorization';
import { ModelQuota, ModelQuotaGuard, QuotaUse } from './modelQuota';
import { actorRef, principalRef } from './principals';
import type { PreparedQuestion } from './prepareQuestion';
import {
  AnalysedQuestion,
  PipelineAnswer,
  PipelineRetrieval,
  QuestionPipeline,
  RetrievalSettings,
} from './QuestionPipeline';

export type { RetrievalSettings } from './QuestionPipeline';

/** Model failures that persist until an operator changes the config: logged as errors. */
const OPERATOR_HINTS: Partial<Record<ModelFailureReason, string>> = {
  rejected: 'check askDocs.llm (apiKey, model, baseUrl)',
  // The window holds the prompt and the answer's max_tokens together.
  context_too_large:
    'lower askDocs.answer.maxContextChars or askDocs.llm.maxTokens: the prompt and the ' +
    "answer's token limit must fit the model's context window",
};

/** The abort reason of asks stopped by the shutdown. */
const SHUTTING_DOWN = new Error('the backend is shutting down');
/**
 * What their callers get: 503, as Backstage answers requests that arrive while it stops, so
 * clients and proxies retry instead of reporting an internal error.
 */
export const RESTARTING_MESSAGE =
  'The backend is restarting; ask again in a moment';

/**
 * A 503 too: while the visibility attributes are staler than the freshness guard allows nothing
 * is visible (fail closed), and "not in the knowledge base" would tell the asker something false.
 */
export const STALE_VISIBILITY_MESSAGE =
  'Who may read which docs is being refreshed; ask again in a moment';

export interface AskServiceOptions {
  /** The knowledge index; every read goes through the asker's visibility. */
  index: KnowledgeIndex;
  store: AskDocsStore;
  permissions: PermissionsService;
  embedder: Embedder;
  analyzers: Analyzers;
  /** Undefined when no model is configured: answers are evidence only. */
  model: ChatModel | undefined;
  retrieval: RetrievalSettings;
  answer: AnswerOptions;
  logger: LoggerService;
  /** Decides the ask and audit permissions; built from `permissions` when absent. */
  authorizer?: AskDocsAuthorizer;
  /** Distinct content words a question may have (default DEFAULT_MAX_QUERY_TERMS). */
  maxQueryTerms?: number;
  /** Optional cross-encoder reordering the top retrieved chunks (QuestionPipeline). */
  reranker?: Reranker;
  /** Counts each answer (status, duration, model failures); the plugin passes its own. */
  metrics?: AskDocsMetrics;
  /** Model calls per principal and window; undefined: no limit. */
  modelQuota?: ModelQuota;
}

export interface AskCallOptions extends AnswerCallOptions {
  credentials: BackstageCredentials;
}

export interface AnswerCallOptions {
  onDelta?: (text: string) => void;
  onPhase?: (phase: 'retrieving' | 'generating') => void;
  /** Aborts retrieval between steps and the model request (e.g. the client went away). */
  signal?: AbortSignal;
}

/** What the response and the audit record both say of an answer. */
function answerFields(
  result: Omit<AnswerResult, 'status'>,
  retrieval: Pick<PipelineRetrieval, 'corrections'>,
) {
  return {
    answer: result.answer,
    sources: result.sources,
    evidence: result.evidence,
    notice: result.notice,
    reason: result.reason,
    quota: result.quota,
    corrections: retrieval.corrections,
    llmModel: result.llmModel,
  };
}

/** Earlier turns a follow-up reads: the previous answer and up to two before it. */
export const MAX_THREAD_TURNS = 3;

/**
 * A follow-up with at most this many distinct content words is taken as elliptic ("and how do I
 * roll that back?") and searched together with the thread's earlier questions. A longer one
 * names its own topic and is searched alone, so an old topic cannot drown a new one.
 */
export const ELLIPTIC_MAX_TERMS = 3;

/**
 * The documents an answer's model text may repeat: those it cited or was sent, and those behind
 * the earlier answers its prompt carried (threadDocumentIds). Undefined when unknown: a follow-up
 * recorded before that list was.
 */
function documentsBehindText(a: StoredAnswer): string[] | undefined {
  if (a.threadId && !a.threadDocumentIds) return undefined;
  return [
    ...a.sources.map(s => s.documentId),
    ...a.retrieved.filter(c => c.sent).map(c => c.documentId),
    ...(a.threadDocumentIds ?? []),
  ];
}

/** What the thread of a follow-up contributes to this turn. */
interface ThreadContext {
  /** The previous answer, when it exists and is the asker's own; otherwise no thread. */
  threadId?: string;
  /** Earlier turns as the asker may see them now, oldest first; redacted turns left out. */
  turns: ConversationTurn[];
  redactedTurns: number;
  /** Documents whose text may be in the earlier answers sent (AnswerWrite.threadDocumentIds). */
  documentIds: string[];
  /** The retrieval question of an elliptic follow-up. */
  searchAs?: AnalysedQuestion;
}

/** A question that passed the ask permission and the input bounds; only prepare() makes one. */
export interface PreparedAsk {
  readonly request: AskRequest;
  readonly credentials: BackstageCredentials;
}

/**
 * Asking: permission decision → the asker's visibility → QuestionPipeline (retrieval and
 * answer) → audit record. Nothing reaches the model that the asker may not read (decision
 * record 0001).
 */
export class AskService {
  private readonly authorizer: AskDocsAuthorizer;
  private readonly pipeline: QuestionPipeline;
  private readonly prepared = new WeakMap<PreparedAsk, AnalysedQuestion>();
  private readonly quota?: ModelQuotaGuard;
  /** Asks being answered here, for stop(), each with its own abort. */
  private readonly inFlight = new Map<Promise<unknown>, AbortController>();
  private stopping = false;

  constructor(private readonly o: AskServiceOptions) {
    this.authorizer = o.authorizer ?? new AskDocsAuthorizer(o.permissions);
    this.pipeline = new QuestionPipeline(o);
    if (o.modelQuota) this.quota = new ModelQuotaGuard(o.modelQuota, o.store);
  }

  async ask(request: AskRequest, call: AskCallOptions): Promise<AskResponse> {
    return this.answer(await this.prepare(request, call.credentials), call);
  }

  /**
   * Everything that can refuse a question before any answer byte is sent: the input bounds
   * (400), the ask permission (403) and stale visibility attributes (503).
   */
  async prepare(
    request: AskRequest,
    credentials: BackstageCredentials,
  ): Promise<PreparedAsk> {
    // The permission first: no work (analysis, dictionaries) for a caller who may not ask.
    await this.authorizer.require(
      askDocsAskPermission,
      credentials,
      'You may not ask the docs',
    );
    const question = this.pipeline.analyse(request.question);
    await this.requireFreshVisibility();
    const handle: PreparedAsk = Object.freeze({ request, credentials });
    this.prepared.set(handle, question);
    return handle;
  }

  /** Answers a prepared question once. */
  async answer(
    handle: PreparedAsk,
    call: AnswerCallOptions,
  ): Promise<AskResponse> {
    const prepared = this.prepared.get(handle);
    // Only a handle from prepare() proves the permission check; each one is used once.
    if (!prepared)
      throw new Error('AskService.answer needs a question from prepare()');
    this.prepared.delete(handle);
    // One controller per ask, not AbortSignal.any over a process-long signal: dependent
    // signals held by a long-lived one pile up in some Node versions.
    const abort = new AbortController();
    const forward = () => abort.abort(call.signal?.reason);
    if (call.signal?.aborted) forward();
    else call.signal?.addEventListener('abort', forward, { once: true });
    if (this.stopping) abort.abort(SHUTTING_DOWN);
    const work = this.answerOnce(handle, prepared, {
      ...call,
      signal: abort.signal,
    }).catch(e => {
      // Whatever the abort broke (the model call, a query), the caller is told the reason. What
      // broke goes to the log only: as a cause it would be in the message and the body.
      if (abort.signal.reason !== SHUTTING_DOWN) throw e;
      this.o.logger.info(`ask-docs: an ask stopped by the shutdown: ${e}`);
      throw new ServiceUnavailableError(RESTARTING_MESSAGE);
    });
    this.inFlight.set(work, abort);
    const done = () => {
      this.inFlight.delete(work);
      call.signal?.removeEventListener('abort', forward);
    };
    work.then(done, done);
    return work;
  }

  /**
   * For the backend's shutdown, before the database closes: lets the asks in progress finish
   * for up to `graceMs`, then aborts the rest, which are recorded as abandoned (the model may
   * have been paid for and its text read), and waits for those records (at most `recordMs`).
   */
  async stop(graceMs = 10_000, recordMs = 5_000): Promise<void> {
    const settled = (ms: number) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      return Promise.race([
        Promise.allSettled([...this.inFlight.keys()]),
        new Promise(resolve => (timer = setTimeout(resolve, ms))),
      ]).finally(() => clearTimeout(timer));
    };
    if (this.inFlight.size) await settled(graceMs);
    this.stopping = true;
    for (const abort of this.inFlight.values()) abort.abort(SHUTTING_DOWN);
    if (this.inFlight.size) await settled(recordMs);
  }

  private async answerOnce(
    handle: PreparedAsk,
    prepared: AnalysedQuestion,
    call: AnswerCallOptions,
  ): Promise<AskResponse> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const { response, modelFailure, quotaExceeded } =
        await this.answerPrepared(handle, prepared, call);
      this.o.metrics?.answered({
        status: response.status,
        grounded: response.grounded,
        seconds: seconds(),
        modelFailure,
        quotaExceeded,
      });
      return response;
    } catch (e) {
      // Every ask counts: one the client left, and one that failed (a database, the embedder).
      this.o.metrics?.answered({
        status: call.signal?.aborted ? ABANDONED_STATUS : 'failed',
        grounded: false,
        seconds: seconds(),
      });
      throw e;
    }
  }

  /** answer()'s work: retrieval, the model and the record; the model's failure, if any. */
  private async answerPrepared(
    handle: PreparedAsk,
    prepared: AnalysedQuestion,
    call: AnswerCallOptions,
  ): Promise<{
    response: AskResponse;
    modelFailure?: string;
    quotaExceeded?: boolean;
  }> {
    const { request, credentials } = handle;
    const visibility = await resolveVisibility({
      permissions: this.o.permissions,
      credentials,
    });

    const thread = await this.threadContext(
      request,
      prepared,
      credentials,
      visibility,
    );
    let retrievedSoFar: PipelineRetrieval | undefined;
    let quotaUse: QuotaUse | undefined;
    const quota = this.quota?.check(
      principalRef(credentials),
      use => (quotaUse = use),
    );
    // Released once the ask's record is written or it failed: then the table counts its call.
    try {
      let run: PipelineAnswer;
      try {
        run = await this.pipeline.run(prepared, visibility, {
          scope: request.scope,
          signal: call.signal,
          onDelta: call.onDelta,
          onPhase: call.onPhase,
          searchAs: thread.searchAs,
          conversation: thread.turns,
          onRetrieved: r => (retrievedSoFar = r),
          holdModel: quota?.hold,
        });
      } catch (e) {
        // The model was called with the asker's documents and may have streamed part of its text:
        // that is audited too, though nobody is left to answer.
        if (e instanceof AnswerAbortedError && retrievedSoFar) {
          await this.o.store
            .insertAnswer(
              this.auditRecord(request, credentials, visibility, thread, {
                question: prepared,
                retrieval: retrievedSoFar,
                result: {
                  status: ABANDONED_STATUS,
                  grounded: false,
                  answer: '',
                  sources: [],
                  evidence: [],
                  unmatchedCitations: [],
                  droppedSources: [],
                  ...e.partial,
                },
              }),
            )
            .catch(err =>
              this.o.logger.warn(
                `ask-docs: could not record an abandoned ask: ${err}`,
              ),
            );
        }
        throw e;
      }
      const { retrieval, result } = run;
      // Skipped calls are not logged one by one: the breaker logs when it opens and closes.
      if (result.modelError && result.modelError.reason !== 'circuit_open') {
        // A refused request (bad key, unknown model) fails every question until an operator
        // acts; a prompt over the model's context window fails the long ones.
        const { reason, message } = result.modelError;
        const hint = OPERATOR_HINTS[reason];
        const log = hint ? this.o.logger.error : this.o.logger.warn;
        log.call(
          this.o.logger,
          `ask-docs: model unavailable (${reason}): ${message}` +
            (hint ? `; ${hint}` : ''),
        );
      }

      const record = this.auditRecord(
        request,
        credentials,
        visibility,
        thread,
        {
          ...run,
          question: prepared,
          quotaUse,
        },
      );
      const { createdAt } = await this.o.store.insertAnswer(record);

      return {
        response: {
          id: record.id,
          status: result.status,
          grounded: result.grounded,
          ...answerFields(result, retrieval),
          embeddingModel: this.o.embedder.modelId,
          createdAt,
        },
        modelFailure: result.modelError?.reason,
        quotaExceeded: quotaUse !== undefined,
      };
    } finally {
      quota?.release();
    }
  }

  /** The audit record of one ask: what was retrieved, sent and answered, and by which settings. */
  private auditRecord(
    request: AskRequest,
    credentials: BackstageCredentials,
    visibility: Visibility,
    thread: ThreadContext,
    run: {
      /** How the question was read: its small talk and the asker's situation (prepareQuestion). */
      question: Pick<PreparedQuestion, 'smallTalk' | 'situation'>;
      /** Set when the asker's model quota kept the model from being called. */
      quotaUse?: QuotaUse;
      retrieval: PipelineRetrieval;
      result: Omit<AnswerResult, 'status'> & { status: string };
    },
  ): AnswerWrite {
    const { retrieval, result } = run;
    const sent = new Set(result.sent);
    const retrieved: RetrievedChunkAudit[] = retrieval.chunks.map(c => ({
      chunkId: c.chunkId,
      documentId: c.documentId,
      title: c.title,
      sectionPath: c.sectionPath,
      revision: c.revision,
      contentHash: c.contentHash,
      rank: c.rank,
      scores: {
        rrf: c.rrf,
        similarity: c.similarity,
        keyword: c.keywordScore,
        coverage: c.coverage,
      },
      sent: sent.has(c.chunkId),
    }));
    return {
      id: randomUUID(),
      userRef: principalRef(credentials),
      askedVia: actorRef(credentials),
      question: request.question,
      scope: request.scope ?? {},
      status: result.status,
      grounded: result.grounded,
      policy: {
        visibility: visibility.summary(),
        candidatesConsidered: retrieval.candidatesConsidered,
        filteredOut: retrieval.filteredOut,
        // What ranked and filtered the chunks, so a replay months later knows the settings too.
        retrieval: this.pipeline.settings,
        // And what made the answer from them: budget, claim checks, prompt version, model.
        answer: this.pipeline.answerSettings,
        corrections: retrieval.corrections,
        // The greeting or thank-you left out of what was searched for (smallTalk.ts).
        ...(run.question.smallTalk.length
          ? { smallTalk: run.question.smallTalk }
          : {}),
        // The sentences read as the asker's situation, not as what is asked (situation.ts).
        ...(run.question.situation.length
          ? { situation: run.question.situation }
          : {}),
        // Whether the reranker ran (model id, fused ranks and scores), for replay.
        ...(retrieval.reranker ? { reranker: retrieval.reranker } : {}),
        unmatchedCitations: result.unmatchedCitations,
        droppedSources: result.droppedSources,
        modelError: result.modelError ?? null,
        ...(run.quotaUse ? { modelQuota: run.quotaUse } : {}),
        ...(thread.threadId
          ? {
              thread: {
                turns: thread.turns.length,
                redactedTurns: thread.redactedTurns,
                searchedWithThread: thread.searchAs !== undefined,
                // What the vector side searched for: earlier turns may later be withheld.
                ...(thread.searchAs
                  ? { searchedText: thread.searchAs.vectorText }
                  : {}),
              },
            }
          : {}),
      },
      retrieved,
      embeddingModel: this.o.embedder.modelId,
      rawOutput: result.rawOutput,
      ...answerFields(result, retrieval),
      threadId: thread.threadId,
      ...(thread.threadId ? { threadDocumentIds: thread.documentIds } : {}),
    };
  }

  /**
   * An answer is readable by the principal who asked, or by a holder of ask-docs.audit.read;
   * either way only with what the reader may see now (toRecord).
   */
  async getAnswer(
    id: string,
    call: { credentials: BackstageCredentials },
  ): Promise<AnswerRecord | undefined> {
    const stored = await this.o.store.getAnswer(id);
    if (!stored) return undefined;
    if (stored.userRef !== principalRef(call.credentials)) {
      const auditor = await this.authorizer.isAllowed(
        askDocsAuditReadPermission,
        call.credentials,
      );
      // Someone else's answer is reported as absent, not forbidden: ids are not an oracle.
      if (!auditor) return undefined;
    }
    return this.toRecord(stored, call.credentials);
  }

  /** The caller's answers, newest first; `before` (an answer id) pages to older ones. */
  async listAnswers(call: {
    credentials: BackstageCredentials;
    limit: number;
    before?: string;
  }): Promise<AnswerRecord[]> {
    const rows = await this.o.store.listAnswers(
      principalRef(call.credentials),
      {
        limit: call.limit,
        before: call.before,
      },
    );
    // One permission decision for the reader, not one per row.
    const visibility = await resolveVisibility({
      permissions: this.o.permissions,
      credentials: call.credentials,
    });
    return Promise.all(
      rows.map(r => this.toRecord(r, call.credentials, visibility)),
    );
  }

  async setFeedback(
    id: string,
    feedback: AnswerFeedback,
    call: { credentials: BackstageCredentials },
  ) {
    const stored = await this.o.store.getAnswer(id);
    if (!stored || stored.userRef !== principalRef(call.credentials)) {
      throw new NotFoundError(noAnswerMessage(id));
    }
    await this.o.store.setFeedback(id, feedback);
  }

  /**
   * A stored answer as the reader may see it NOW: sources and evidence of documents the reader
   * can no longer see (or that no longer exist, so their access cannot be checked) are left out,
   * and model text is replaced when any document it cited or was sent is hidden, because the text
   * may repeat it; so is a follow-up's when a document behind an earlier answer in its prompt
   * is (threadDocumentIds); the feedback comment goes whenever anything does. The asker is no
   * exception: their access may have changed since.
   */
  private async toRecord(
    a: StoredAnswer,
    reader: BackstageCredentials,
    readerVisibility?: Visibility,
  ): Promise<AnswerRecord> {
    const visibility =
      readerVisibility ??
      (await resolveVisibility({
        permissions: this.o.permissions,
        credentials: reader,
      }));
    const behindText = documentsBehindText(a);
    const documentIds = new Set(
      [...a.sources, ...a.evidence]
        .map(s => s.documentId)
        .concat(behindText ?? []),
    );
    const current = await this.o.store.currentRevisions(
      [...documentIds],
      visibility,
    );
    const visible = (documentId: string) =>
      typeof current.get(documentId) === 'string';
    const sources = a.sources.filter(s => visible(s.documentId));
    const evidence = a.evidence.filter(e => visible(e.documentId));
    const corrections = await this.visibleCorrections(
      a.corrections ?? [],
      visibility,
    );
    const answerText = a.status === 'answered' && !behindText?.every(visible);
    const scope = await this.scopeFor(a, reader, visibility);
    const scopeLeftOut =
      (a.scope?.entityRefs?.length ?? 0) - (scope.entityRefs?.length ?? 0);
    const redacted = {
      sources: a.sources.length - sources.length,
      evidence: a.evidence.length - evidence.length,
      corrections: (a.corrections?.length ?? 0) - corrections.length,
      answerText,
      ...(scopeLeftOut > 0 ? { scope: scopeLeftOut } : {}),
    };
    // What the answer drew on: its notice and the comment rating it go with it. A scope ref
    // left out hides no part of the answer.
    const documentsRedacted =
      answerText ||
      redacted.sources + redacted.evidence + redacted.corrections > 0;
    const anyRedacted = documentsRedacted || scopeLeftOut > 0;
    const outdatedSources = sources
      .filter(s => current.get(s.documentId) !== s.revision)
      .map(s => ({
        documentId: s.documentId,
        title: s.title,
        answeredRevision: s.revision,
        currentRevision: current.get(s.documentId) ?? null,
      }));
    return {
      id: a.id,
      status: a.status as AnswerRecord['status'],
      // Replaced text is no model answer any more: clients show it as a notice, not as prose.
      grounded: a.grounded && !answerText,
      answer: answerText ? REDACTED_ANSWER_TEXT : a.answer,
      // Marker labels are model text too ("[Visible page › Hidden page]"): they go with it.
      sources: answerText ? sources.map(withoutCitations) : sources,
      evidence,
      notice: documentsRedacted ? REDACTED_NOTICE : a.notice,
      reason: a.reason,
      quota: a.quota,
      corrections,
      llmModel: a.llmModel,
      embeddingModel: a.embeddingModel,
      createdAt: a.createdAt,
      question: a.question,
      userRef: a.userRef,
      scope,
      outdatedSources,
      // The asker's comment may quote what it rates (the text, a passage, a correction): it
      // goes whenever anything is withheld; the rating stays.
      feedback:
        documentsRedacted && a.feedback
          ? { rating: a.feedback.rating }
          : a.feedback,
      ...(a.threadId ? { threadId: a.threadId } : {}),
      ...(a.askedVia ? { askedVia: a.askedVia } : {}),
      ...(anyRedacted ? { redacted } : {}),
    };
  }

  /**
   * The question's scope as the reader may see it: whole for the asker (they typed it); for
   * anyone else (an auditor) only the refs of entities the reader may see, so an entity's name
   * reaches no one through another user's question.
   */
  private async scopeFor(
    a: StoredAnswer,
    reader: BackstageCredentials,
    visibility: Visibility,
  ): Promise<StoredAnswer['scope']> {
    const refs = a.scope?.entityRefs;
    if (!refs?.length || principalRef(reader) === a.userRef) return a.scope;
    const visible = await this.o.store.visibleEntityRefs(refs, visibility);
    return {
      ...a.scope,
      entityRefs: refs.filter(r => visible.has(r.toLowerCase())),
    };
  }

  /**
   * The earlier turns of a follow-up, read from the audit log: the asker's own answers only
   * (anyone else's id ends the thread as an unknown one would, so ids are no oracle), each
   * through toRecord like a replay, so a turn that drew on a document the asker can no longer
   * see is left out whole.
   */
  private async threadContext(
    request: AskRequest,
    question: AnalysedQuestion,
    credentials: BackstageCredentials,
    visibility: Visibility,
  ): Promise<ThreadContext> {
    const asker = principalRef(credentials);
    const records: Array<{ stored: StoredAnswer; record: AnswerRecord }> = [];
    for (let id = request.threadId; id && records.length < MAX_THREAD_TURNS; ) {
      const stored = await this.o.store.getAnswer(id);
      if (!stored || stored.userRef !== asker) break;
      records.unshift({
        stored,
        record: await this.toRecord(stored, credentials, visibility),
      });
      id = stored.threadId;
    }
    if (!records.length)
      return { turns: [], redactedTurns: 0, documentIds: [] };
    const kept = records.filter(r => !r.record.redacted);
    // Only a model answer is context worth sending; fixed notices are not.
    const sentAnswer = ({ record: r }: (typeof kept)[number]) =>
      r.status === 'answered' && r.grounded;
    const turns = kept.map(r => ({
      question: r.record.question,
      ...(sentAnswer(r) ? { answer: r.record.answer } : {}),
    }));
    // What each answer sent may repeat, its own thread's documents included, so hidden text
    // passed on from turn to turn is caught at every turn.
    const documentIds = new Set(
      kept
        .filter(sentAnswer)
        .flatMap(({ stored }) => documentsBehindText(stored) ?? []),
    );
    return {
      threadId: records[records.length - 1].record.id,
      turns,
      redactedTurns: records.length - turns.length,
      documentIds: [...documentIds].sort(),
      searchAs: this.followUpSearch(question, turns),
    };
  }

  /**
   * An elliptic follow-up is searched with the earlier questions it leans on: the newest ones
   * back to the first that names its own topic (is not elliptic itself), oldest dropped while
   * together they exceed the query term bound. They go to the vector side only: the embedding
   * of "deploy zebrafoo … and how do I roll that back?" steers the ranking towards the topic,
   * while keyword matching and coverage stay on the follow-up's own words, so earlier words
   * can never make a passage count as evidence on their own (coverage is the share of ALL
   * query words a passage has; the thread's words would dilute it).
   */
  private followUpSearch(
    question: AnalysedQuestion,
    turns: ConversationTurn[],
  ): AnalysedQuestion | undefined {
    // Counted in what is asked: "We got another incident report today. And how do I roll that
    // back?" leans on the thread as much as "And how do I roll that back?".
    const elliptic = (q: AnalysedQuestion | undefined) =>
      q !== undefined &&
      new Set(
        q.queryTokens.filter(t => !t.situation).map(t => t.token.toLowerCase()),
      ).size <= ELLIPTIC_MAX_TERMS;
    if (!elliptic(question)) return undefined;
    const earlier: string[] = [];
    for (const turn of [...turns].reverse()) {
      earlier.unshift(turn.question);
      if (!elliptic(this.analyseIfBounded(turn.question))) break;
    }
    for (let first = 0; first < earlier.length; first++) {
      const text = [...earlier.slice(first), question.question].join('\n');
      const searched = this.analyseIfBounded(text);
      if (searched)
        return Object.freeze({ ...question, vectorText: searched.vectorText });
    }
    return undefined;
  }

  /** The analysed text, or undefined when it has more content words than the bound. */
  private analyseIfBounded(text: string): AnalysedQuestion | undefined {
    try {
      return this.pipeline.analyse(text);
    } catch (e) {
      if (e instanceof InputError) return undefined;
      throw e;
    }
  }

  /** Corrections whose suggested word is still in the reader's visible vocabulary. */
  private async visibleCorrections(
    corrections: Array<{ from: string; to: string }>,
    visibility: Visibility,
  ): Promise<Array<{ from: string; to: string }>> {
    if (corrections.length === 0) return [];
    const terms = await this.o.index
      .reader(visibility)
      .visibleWords(corrections.map(c => c.to));
    return corrections.filter(c => terms.has(c.to));
  }

  /**
   * Retrieval only (the agents' search action): the same checks and retrieval as ask() (input
   * bounds, ask permission, the caller's visibility), without the model and the audit record.
   */
  async search(
    request: AskRequest,
    call: { credentials: BackstageCredentials; signal?: AbortSignal },
  ): Promise<PipelineRetrieval> {
    const handle = await this.prepare(request, call.credentials);
    const question = this.prepared.get(handle)!;
    this.prepared.delete(handle);
    const visibility = await resolveVisibility({
      permissions: this.o.permissions,
      credentials: call.credentials,
    });
    call.signal?.throwIfAborted();
    const embedded = await this.pipeline.embed(question);
    call.signal?.throwIfAborted();
    return this.pipeline.retrieve(embedded, visibility, {
      scope: request.scope,
    });
  }

  /**
   * Refuses with 503 while the freshness guard hides everything. Every query keeps the guard
   * (a sync that goes stale after this check still shows nothing); this only names the cause.
   */
  private async requireFreshVisibility(): Promise<void> {
    if ((await this.o.store.visibilitySyncState()).stale)
      throw new ServiceUnavailableError(STALE_VISIBILITY_MESSAGE);
  }
}

function withoutCitations(source: AnswerSource): AnswerSource {
  const { citations: _labels, ...rest } = source;
  return rest;
}
