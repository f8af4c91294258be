import { BackstageCredentials, LoggerService, PermissionsService } from '@backstage/backend-plugin-api';
import { NotAllowedError, NotFoundError } from '@backstage/errors';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  AnswerFeedback,
  AnswerRecord,
  AskRequest,
  AskResponse,
  askDocsAdminPermission,
  askDocsAskPermission,
} from '@askdocs/plugin-ask-docs-common';
import { randomUUID } from 'crypto';
import { Knex } from 'knex';
import { AnswerOptions, ChatModel, RetrievedChunk, answerQuestion } from '../answer';
import { AskDocsStore, RetrievedChunkAudit, StoredAnswer } from '../database/AskDocsStore';
import { Embedder } from '../embedding';
import { Analyzers } from '../language';
import { resolveVisibility } from '../permissions';
import { FusionWeights, RelevanceThresholds, retrieve } from '../retrieval';
import { prepareQuestion, rewriteWords } from './prepareQuestion';

export interface AskServiceOptions {
  knex: Knex;
  store: AskDocsStore;
  permissions: PermissionsService;
  embedder: Embedder;
  analyzers: Analyzers;
  /** Undefined when no model is configured: answers are evidence only. */
  model: ChatModel | undefined;
  retrieval: RetrievalSettings;
  answer: AnswerOptions;
  logger: LoggerService;
}

export interface RetrievalSettings {
  /** Chunks kept after fusion and the evidence filter. */
  k: number;
  candidates?: number;
  rrfK?: number;
  thresholds: RelevanceThresholds;
  /** RRF weights for the vector and keyword lists (per embedding model). */
  weights?: FusionWeights;
}

export interface AskCallOptions {
  credentials: BackstageCredentials;
  onDelta?: (text: string) => void;
  onPhase?: (phase: 'retrieving' | 'generating') => void;
  signal?: AbortSignal;
}

/**
 * The question pipeline: permission decision → visible retrieval → answer → audit record.
 * Nothing reaches the model that the asker may not read (decision record 0001).
 */
export class AskService {
  constructor(private readonly o: AskServiceOptions) {}

  async ask(request: AskRequest, call: AskCallOptions): Promise<AskResponse> {
    const { credentials } = call;
    await this.requireAllowed(askDocsAskPermission, credentials, 'You may not ask the docs');
    const visibility = await resolveVisibility({ permissions: this.o.permissions, credentials });

    const { queryTokens, vectorText } = prepareQuestion(request.question, this.o.analyzers);
    const embedder = this.o.embedder;
    const retrieval = await retrieve({
      knex: this.o.knex,
      visibility,
      scope: request.scope,
      queryVector: await embedder.embedQuery(vectorText),
      reembed: corrections => embedder.embedQuery(rewriteWords(vectorText, new Map(corrections.map(c => [c.from, c.to])))),
      modelId: embedder.modelId,
      queryTokens,
      mode: 'hybrid',
      ...this.o.retrieval,
    });

    call.onPhase?.('generating');
    const chunks: RetrievedChunk[] = retrieval.chunks.map(c => ({ ...c, score: c.rrf }));
    const result = await answerQuestion({
      question: request.question,
      chunks,
      model: this.o.model,
      options: { ...this.o.answer, onDelta: call.onDelta, signal: call.signal },
    });
    if (result.modelError) {
      this.o.logger.warn(`ask-docs: model unavailable (${result.modelError.reason}): ${result.modelError.message}`);
    }

    const sent = new Set(result.sent);
    const retrieved: RetrievedChunkAudit[] = retrieval.chunks.map(c => ({
      chunkId: c.chunkId,
      documentId: c.documentId,
      title: c.title,
      sectionPath: c.sectionPath,
      revision: c.revision,
      contentHash: c.contentHash,
      rank: c.rank,
      scores: { rrf: c.rrf, similarity: c.similarity, keyword: c.keywordScore, coverage: c.coverage },
      sent: sent.has(c.chunkId),
    }));
    const id = randomUUID();
    const userRef = principalRef(credentials);
    await this.o.store.insertAnswer({
      id,
      userRef,
      question: request.question,
      scope: request.scope ?? {},
      status: result.status,
      grounded: result.grounded,
      policy: {
        visibility: visibility.summary(),
        candidatesConsidered: retrieval.candidatesConsidered,
        filteredOut: retrieval.filteredOut,
        // What ranked and filtered the chunks, so a replay months later knows the settings too.
        retrieval: this.o.retrieval,
        corrections: retrieval.corrections,
        unmatchedCitations: result.unmatchedCitations,
        droppedSources: result.droppedSources,
        modelError: result.modelError ?? null,
      },
      retrieved,
      embeddingModel: this.o.embedder.modelId,
      llmModel: result.llmModel,
      rawOutput: result.rawOutput,
      answer: result.answer,
      sources: result.sources,
      evidence: result.evidence,
      notice: result.notice,
      corrections: retrieval.corrections,
    });

    return {
      id,
      status: result.status,
      grounded: result.grounded,
      answer: result.answer,
      sources: result.sources,
      evidence: result.evidence,
      notice: result.notice,
      corrections: retrieval.corrections,
      llmModel: result.llmModel,
      embeddingModel: this.o.embedder.modelId,
      createdAt: new Date().toISOString(),
    };
  }

  /** An answer is readable by the user who asked, or by an ask-docs administrator. */
  async getAnswer(id: string, call: { credentials: BackstageCredentials }): Promise<AnswerRecord | undefined> {
    const stored = await this.o.store.getAnswer(id);
    if (!stored) return undefined;
    if (stored.userRef !== principalRef(call.credentials)) {
      const admin = await this.isAllowed(askDocsAdminPermission, call.credentials);
      // Someone else's answer is reported as absent, not forbidden: ids are not an oracle.
      if (!admin) return undefined;
    }
    return this.toRecord(stored, call.credentials);
  }

  async listAnswers(call: { credentials: BackstageCredentials; limit: number }): Promise<AnswerRecord[]> {
    const rows = await this.o.store.listAnswers(principalRef(call.credentials), call.limit);
    return Promise.all(rows.map(r => this.toRecord(r, call.credentials)));
  }

  async setFeedback(id: string, feedback: AnswerFeedback, call: { credentials: BackstageCredentials }) {
    const stored = await this.o.store.getAnswer(id);
    if (!stored || stored.userRef !== principalRef(call.credentials)) {
      throw new NotFoundError(`No answer ${id}`);
    }
    await this.o.store.setFeedback(id, feedback);
  }

  private async toRecord(a: StoredAnswer, reader: BackstageCredentials): Promise<AnswerRecord> {
    const byDoc = new Map(a.sources.map(s => [s.documentId, s]));
    const visibility = await resolveVisibility({ permissions: this.o.permissions, credentials: reader });
    const current = await this.o.store.currentRevisions([...byDoc.keys()], visibility);
    const outdatedSources = [...byDoc.values()]
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
      grounded: a.grounded,
      answer: a.answer,
      sources: a.sources,
      evidence: a.evidence,
      notice: a.notice,
      corrections: a.corrections,
      llmModel: a.llmModel,
      embeddingModel: a.embeddingModel,
      createdAt: a.createdAt,
      question: a.question,
      userRef: a.userRef,
      scope: a.scope,
      outdatedSources,
      feedback: a.feedback,
    };
  }

  private async isAllowed(permission: typeof askDocsAdminPermission, credentials: BackstageCredentials) {
    try {
      const [d] = await this.o.permissions.authorize([{ permission }], { credentials });
      return d.result === AuthorizeResult.ALLOW;
    } catch {
      return false; // a failing permission check denies
    }
  }

  private async requireAllowed(permission: typeof askDocsAskPermission, credentials: BackstageCredentials, message: string) {
    if (!(await this.isAllowed(permission, credentials))) throw new NotAllowedError(message);
  }
}

function principalRef(credentials: BackstageCredentials): string {
  const p = credentials.principal as { type: string; userEntityRef?: string; subject?: string };
  if (p.type === 'user' && p.userEntityRef) return p.userEntityRef;
  if (p.type === 'service' && p.subject) return `service:${p.subject}`;
  return p.type;
}
