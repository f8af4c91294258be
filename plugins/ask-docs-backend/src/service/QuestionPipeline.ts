import {
  AnswerOptions,
  AnswerResult,
  ChatModel,
  RetrievedChunk,
  answerQuestion,
  answerSettings,
} from '../answer';
import type { ConversationTurn, NoAnswerNotice } from '../answer';
import { LoggerService } from '@backstage/backend-plugin-api';
import type { KnowledgeIndex } from '../database/IndexReader';
import { Embedder } from '../embedding';
import type { Reranker } from '../embedding/reranker';
import { Analyzers } from '../language';
import { Visibility } from '../permissions';
import {
  EvidenceModel,
  FusionMethod,
  FusionWeights,
  RelevanceThresholds,
  RetrievalMode,
  RetrievalResult,
  RetrievalScope,
  retrieve,
} from '../retrieval';
import {
  analyzerCorrectedWordKeys,
  analyzerWordKeys,
} from '../retrieval/proximity';
import { RerankRecord, rerankChunks } from '../retrieval/rerank';
import {
  candidatePool,
  RankingSettings,
  rankingSettings,
} from '../retrieval/retriever';
import {
  PreparedQuestion,
  prepareQuestion,
  rewriteWords,
} from './prepareQuestion';

/** How the product ranks and filters chunks (readRetrievalSettings). */
export interface RetrievalSettings {
  /** Chunks kept after fusion and the evidence filter. */
  k: number;
  candidates?: number;
  rrfK?: number;
  thresholds: RelevanceThresholds;
  /**
   * The fitted question-level evidence decision (decision record 0009; settings.ts picks it:
   * by default for the model id it was fitted on); undefined means the thresholds decide.
   */
  evidenceModel?: EvidenceModel;
  /** RRF weights for the vector and keyword lists (per embedding model). */
  weights?: FusionWeights;
  /** How the lists are fused (fusion.ts); the retriever's default, RRF, when unset. */
  fusion?: FusionMethod;
  /** Section-title and phrase evidence in the fused score; the retriever's defaults when unset. */
  titleWeight?: number;
  phraseWeight?: number;
  /** Share of the fused score release notes lose (releaseNotes.ts); the retriever's default. */
  releaseNotesPenalty?: number;
}

export interface QuestionPipelineOptions {
  /** The knowledge index; each retrieval reads it through the asker's visibility. */
  index: KnowledgeIndex;
  embedder: Pick<Embedder, 'modelId' | 'embedQuery'>;
  analyzers: Analyzers;
  /** Undefined when no model is configured: answers are evidence only. */
  model: ChatModel | undefined;
  retrieval: RetrievalSettings;
  answer: AnswerOptions;
  /** Distinct content words a question may have (default DEFAULT_MAX_QUERY_TERMS). */
  maxQueryTerms?: number;
  /** Optional cross-encoder that reorders the top retrieved chunks (createReranker). */
  reranker?: Reranker;
  /** Where a reranker failure at question time is reported. */
  logger?: Pick<LoggerService, 'warn'>;
}

/** Retrieval as the pipeline returns it: with what the reranker did, when one is configured. */
export interface PipelineRetrieval extends RetrievalResult {
  reranker?: RerankRecord;
  /**
   * The question's own words as searched for: without its small talk, diacritics restored,
   * typos corrected. Snippets centre on it; an elliptic follow-up's vector side also searched
   * with the earlier questions, but its snippets centre on its own words, as its keyword side
   * and evidence do.
   */
  searchedFor: string;
}

/** A question analysed for both retrievers; only QuestionPipeline.analyse() makes one. */
export interface AnalysedQuestion extends PreparedQuestion {
  readonly question: string;
}

/** An analysed question with its query vector. */
export interface EmbeddedQuestion extends AnalysedQuestion {
  readonly queryVector: number[];
}

export interface PipelineRetrieveOptions {
  scope?: RetrievalScope;
  /** 'hybrid' in the product; the single-retriever modes are for comparisons (evaluation). */
  mode?: RetrievalMode;
  /** Replaces product settings for this call (e.g. a wider k or no evidence filter). */
  settings?: Partial<RetrievalSettings>;
  /** Apply the configured reranker (default true); comparisons of single retrievers skip it. */
  rerank?: boolean;
  /**
   * The question the evidence decision reads (its names, identifiers, language), when the
   * vector side searches with more (a follow-up with the earlier questions it leans on).
   */
  evidenceText?: string;
}

export interface PipelineRunOptions {
  scope?: RetrievalScope;
  onDelta?: (text: string) => void;
  onPhase?: (phase: 'generating') => void;
  /** Aborts between steps and the model request (e.g. the client went away). */
  signal?: AbortSignal;
  /** What a follow-up searches for instead of `question` (AskService.threadContext). */
  searchAs?: AnalysedQuestion;
  /** Earlier turns of the asker's thread: context for the model, never citable. */
  conversation?: ConversationTurn[];
  /** Gets the retrieval before the answer step (for the audit of an ask abandoned there). */
  onRetrieved?: (retrieval: PipelineRetrieval) => void;
  /** Keeps the model from being called, with a notice (AnswerInput.holdModel). */
  holdModel?: () => Promise<NoAnswerNotice | undefined>;
}

export interface PipelineAnswer {
  retrieval: PipelineRetrieval;
  /** The chunks handed to the answer step, in rank order. */
  chunks: RetrievedChunk[];
  result: AnswerResult;
}

/**
 * The one question pipeline: analyse → embed → permission-scoped hybrid retrieval (with typo
 * corrections and the evidence filter) → answer. AskService runs it after the permission
 * decision, and the evaluation and benchmarks call this same object, so what they measure is
 * what the product runs. It never decides permissions: callers pass the asker's Visibility.
 */
export class QuestionPipeline {
  constructor(private readonly o: QuestionPipelineOptions) {}

  /**
   * The product's retrieval settings with every default the retriever fills in, as recorded
   * with every answer: a record keeps saying what ranked it after a default changes. The
   * boosts' weights only where they apply (rankingSettings adds them back with RRF).
   */
  get settings(): RetrievalSettings & RankingSettings {
    const { titleWeight, phraseWeight, ...configured } = this.o.retrieval;
    return { ...configured, ...rankingSettings(this.o.retrieval) };
  }

  /** The answer step's settings as recorded with every answer: defaults filled, prompt, model. */
  get answerSettings() {
    return {
      ...answerSettings(this.o.answer),
      ...(this.o.model?.settings ? { model: this.o.model.settings } : {}),
    };
  }

  /** Throws InputError when the question has too many distinct content words. */
  analyse(question: string): AnalysedQuestion {
    const prepared = prepareQuestion(question, this.o.analyzers, {
      maxQueryTerms: this.o.maxQueryTerms,
    });
    return Object.freeze({ question, ...prepared });
  }

  async embed(question: AnalysedQuestion): Promise<EmbeddedQuestion> {
    const queryVector = await this.o.embedder.embedQuery(question.vectorText);
    return Object.freeze({ ...question, queryVector });
  }

  /**
   * Chunks the asker may see that answer the question, ranked and filtered, then (with a
   * reranker) the top ones reordered by it.
   */
  async retrieve(
    question: EmbeddedQuestion,
    visibility: Visibility,
    options: PipelineRetrieveOptions = {},
  ): Promise<PipelineRetrieval> {
    const { embedder } = this.o;
    const { vectorText } = question;
    const corrected = (corrections: Array<{ from: string; to: string }>) =>
      rewriteWords(vectorText, new Map(corrections.map(c => [c.from, c.to])));
    const settings = { ...this.o.retrieval, ...options.settings };
    const reranker = options.rerank === false ? undefined : this.o.reranker;
    // The reranker picks from the top N chunks that passed the filter, so retrieve() returns
    // that many; the candidate pool stays the retriever's default for the product's k, so
    // fusion, the evidence decision and the filter see exactly what they see without it.
    const pool = candidatePool(settings.k, settings.candidates);
    const result = await retrieve({
      reader: this.o.index.reader(visibility),
      scope: options.scope,
      queryVector: question.queryVector,
      // The vector side searches for the corrected words too, not for the typo.
      reembed: corrections => embedder.embedQuery(corrected(corrections)),
      modelId: embedder.modelId,
      queryTokens: question.queryTokens,
      passageWordKeys: analyzerWordKeys(this.o.analyzers),
      correctedWordKeys: analyzerCorrectedWordKeys(this.o.analyzers),
      // With restored diacritics: the question's language is one of the evidence features.
      question: options.evidenceText ?? vectorText,
      mode: options.mode ?? 'hybrid',
      ...settings,
      ...(reranker
        ? {
            k: Math.max(settings.k, Math.min(reranker.candidates, pool)),
            candidates: pool,
          }
        : {}),
    });
    const searchedFor = corrected(result.corrections);
    if (!reranker || result.chunks.length === 0)
      return { ...result, searchedFor };
    // The cross-encoder reads the question as the vector side searched for it.
    const { chunks, record } = await rerankChunks(
      result.chunks,
      searchedFor,
      reranker,
      settings.k,
      error =>
        this.o.logger?.warn(
          `ask-docs: reranker ${reranker.modelId} failed, keeping the fused order: ` +
            `${error.message}`,
        ),
    );
    return { ...result, chunks, reranker: record, searchedFor };
  }

  /** The answer step on retrieved chunks; the model sees nothing else. */
  async answer(
    question: AnalysedQuestion,
    retrieval: PipelineRetrieval,
    call: Pick<
      PipelineRunOptions,
      'onDelta' | 'onPhase' | 'signal' | 'conversation' | 'holdModel'
    > = {},
  ): Promise<Omit<PipelineAnswer, 'retrieval'>> {
    const chunks: RetrievedChunk[] = retrieval.chunks.map(c => ({
      ...c,
      score: c.rrf,
    }));
    const result = await answerQuestion({
      question: question.question,
      focus: retrieval.searchedFor,
      chunks,
      model: this.o.model,
      options: {
        ...this.o.answer,
        onDelta: call.onDelta,
        signal: call.signal,
        // 'generating' only when the model is asked, not for evidence alone (no model, a quota).
        onModelCall: call.onPhase && (() => call.onPhase?.('generating')),
      },
      conversation: call.conversation,
      holdModel: call.holdModel,
    });
    return { chunks, result };
  }

  /** The whole product path for an asker's visibility: embed, retrieve (hybrid), answer. */
  async run(
    question: AnalysedQuestion,
    visibility: Visibility,
    call: PipelineRunOptions = {},
  ): Promise<PipelineAnswer> {
    const { signal } = call;
    signal?.throwIfAborted();
    const embedded = await this.embed(call.searchAs ?? question);
    signal?.throwIfAborted();
    const searched = await this.retrieve(embedded, visibility, {
      scope: call.scope,
      // Earlier questions steer the vector side only: a name they mention that the passages
      // lack must not count against the follow-up's own evidence.
      ...(call.searchAs ? { evidenceText: question.vectorText } : {}),
    });
    const retrieval: PipelineRetrieval = call.searchAs
      ? {
          ...searched,
          searchedFor: rewriteWords(
            question.vectorText,
            new Map(searched.corrections.map(c => [c.from, c.to])),
          ),
        }
      : searched;
    signal?.throwIfAborted();
    call.onRetrieved?.(retrieval);
    return { retrieval, ...(await this.answer(question, retrieval, call)) };
  }
}
