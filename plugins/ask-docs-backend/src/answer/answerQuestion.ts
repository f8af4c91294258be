import {
  AskResponse,
  CONTEXT_TOO_LARGE_NOTICE,
  EVIDENCE_ONLY_NOTICE,
  MODEL_FOUND_NO_ANSWER_NOTICE,
  UNCITED_ANSWER_NOTICE,
  UNSUPPORTED_ANSWER_NOTICE,
  EvidenceChunk,
  ModelQuota,
  NOT_IN_KNOWLEDGE_BASE_ANSWER,
  NoticeReason,
} from '@askdocs/plugin-ask-docs-common';
import {
  CitationMatch,
  matchCitations,
  stripMarkers,
  UnmatchedCitation,
} from './citations';
import { classifyModelError, ModelFailureReason } from './llm';
import {
  buildPrompt,
  DEFAULT_MAX_BLOCKS,
  DEFAULT_MAX_CONTEXT_CHARS,
  NOT_IN_DOCUMENTS_REPLY,
  PROMPT_VERSION,
} from './prompt';
import { citedPassage, contentTerms, overlap } from './snippet';
import type { ChatModel, ConversationTurn, RetrievedChunk } from './types';

export const DEFAULT_MAX_EVIDENCE = 5;
/**
 * Claim verification threshold: a cited document is kept when, for at least one sentence
 * citing it, at least this share of the sentence's content words (5-letter prefixes, stopwords
 * removed) occur in the document's sent chunks. Sentences with fewer than 3 content words are
 * too short to judge and always pass.
 */
export const DEFAULT_MIN_CLAIM_OVERLAP = 0.25;
const MIN_JUDGEABLE_TERMS = 3;

export interface AnswerOptions {
  maxContextChars?: number;
  maxBlocks?: number;
  /** Passages shown when there is no model answer. */
  maxEvidence?: number;
  /** Drop cited documents that share too few words with the sentences citing them. */
  verifyClaims?: boolean;
  minClaimOverlap?: number;
  /** The asker went away: rethrown as is, never turned into an evidence-only answer. */
  signal?: AbortSignal;
  /** Streams the raw model text; the final status and sources come with the result. */
  onDelta?: (text: string) => void;
  /** Called once, just before the model is asked: not when evidence alone is the answer. */
  onModelCall?: () => void;
}

/**
 * The asker went away while the model answered (the caller's signal aborted). Carries what the
 * audit needs: the model was called with these chunks, and this much text was streamed.
 */
export class AnswerAbortedError extends Error {
  constructor(
    readonly partial: { llmModel: string; sent: string[]; rawOutput: string },
    readonly cause: unknown,
  ) {
    super('The asker went away while the model answered');
    this.name = 'AnswerAbortedError';
  }
}

/**
 * The answer settings with every default filled in, as recorded with every answer (with the
 * prompt's version), so a record keeps saying what made it after a default changes.
 */
export function answerSettings(options: AnswerOptions = {}) {
  return {
    maxContextChars: options.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS,
    maxBlocks: options.maxBlocks ?? DEFAULT_MAX_BLOCKS,
    maxEvidence: options.maxEvidence ?? DEFAULT_MAX_EVIDENCE,
    verifyClaims: options.verifyClaims ?? false,
    minClaimOverlap: options.minClaimOverlap ?? DEFAULT_MIN_CLAIM_OVERLAP,
    promptVersion: PROMPT_VERSION,
  };
}

export interface AnswerInput {
  /** As asked: the model reads it (small talk and all) and answers in its language. */
  question: string;
  /** What was searched for (PipelineRetrieval.searchedFor); evidence snippets centre on it. */
  focus?: string;
  /** Relevance-filtered, permission-filtered, ranked. */
  chunks: RetrievedChunk[];
  /** Undefined when no model is configured. */
  model: ChatModel | undefined;
  options?: AnswerOptions;
  /** Earlier turns of the asker's thread (context for the model, never citable). */
  conversation?: ConversationTurn[];
  /**
   * Asked only when the model would otherwise be called (evidence that fits the budget, a model
   * configured): a notice means evidence only, the model not called (the asker's quota is spent).
   */
  holdModel?: () => Promise<NoAnswerNotice | undefined>;
}

/** Why a response holds no model answer, and the notice saying so. */
export interface NoAnswerNotice {
  reason: NoticeReason;
  notice: string;
  /** With 'quota_exceeded': the limit reached. */
  quota?: ModelQuota;
}

/** The answer part of the response (`llmModel`: the model that was asked, when one was). */
export interface AnswerResult
  extends Pick<
    AskResponse,
    | 'status'
    | 'grounded'
    | 'answer'
    | 'sources'
    | 'evidence'
    | 'notice'
    | 'reason'
    | 'quota'
    | 'llmModel'
  > {
  /** The model's text as received, for the audit record (also when it is not shown). */
  rawOutput?: string;
  /** Chunk ids sent to the model, in block order. */
  sent: string[];
  /** Markers that named no sent document (hallucinated, copied from a document, ambiguous). */
  unmatchedCitations: UnmatchedCitation[];
  /** Cited documents removed by claim verification, by label. */
  droppedSources: string[];
  modelError?: { reason: ModelFailureReason; message: string };
}

/**
 * Turns retrieved chunks into an answer. Never throws because of the model: a missing or
 * failing model yields an evidence-only result. Status rules:
 * - no chunks: 'not_in_knowledge_base', the model is not called;
 * - no model, a held model (holdModel), model failure, or no chunk fits the budget:
 *   'evidence_only';
 * - the model replies NOT_IN_DOCUMENTS and cites nothing: 'not_in_knowledge_base';
 * - the model cites no sent document (or verification rejects all): 'evidence_only', its text
 *   kept only in rawOutput;
 * - otherwise 'answered' and grounded, with one source per cited document.
 */
export async function answerQuestion(
  input: AnswerInput,
): Promise<AnswerResult> {
  const { question, focus = question, chunks, model, options = {} } = input;
  // The defaults in one place, the one the audit record states.
  const settings = answerSettings(options);
  const base = {
    sources: [],
    evidence: [],
    sent: [],
    unmatchedCitations: [],
    droppedSources: [],
  };
  if (!chunks.length) {
    return {
      ...base,
      status: 'not_in_knowledge_base',
      grounded: false,
      answer: NOT_IN_KNOWLEDGE_BASE_ANSWER,
      reason: 'no_evidence',
    };
  }

  const evidenceOnly = (
    { reason, notice, quota }: NoAnswerNotice,
    extra: Partial<AnswerResult> = {},
  ): AnswerResult => ({
    ...base,
    status: 'evidence_only',
    grounded: false,
    answer: notice,
    notice,
    reason,
    ...(quota ? { quota } : {}),
    evidence: evidenceFor(focus, chunks, settings.maxEvidence),
    ...extra,
  });

  if (!model)
    return evidenceOnly({ reason: 'no_model', notice: EVIDENCE_ONLY_NOTICE });

  const prompt = buildPrompt(
    question,
    chunks,
    {
      maxContextChars: settings.maxContextChars,
      maxBlocks: settings.maxBlocks,
    },
    input.conversation,
  );
  if (!prompt.sent.length)
    return evidenceOnly({
      reason: 'context_too_large',
      notice: CONTEXT_TOO_LARGE_NOTICE,
    });
  // Last: nothing else would keep the model from being called.
  const held = await input.holdModel?.();
  if (held) return evidenceOnly(held);
  const sent = prompt.sent.map(c => c.chunkId);

  let rawOutput: string;
  let streamed = '';
  const onDelta = options.onDelta;
  // Not while the model is paused: the asker would see "generating" flash for nothing.
  if (!model.skipping?.()) options.onModelCall?.();
  try {
    rawOutput = await model.complete(prompt.messages, {
      signal: options.signal,
      onDelta: onDelta
        ? text => {
            streamed += text;
            onDelta(text);
          }
        : undefined,
    });
  } catch (error) {
    if (options.signal?.aborted) {
      throw new AnswerAbortedError(
        { llmModel: model.model, sent, rawOutput: streamed },
        error,
      );
    }
    const failure = classifyModelError(error);
    // What the asker may already have read (streamed) or the model sent before it was cut
    // off: the record keeps it, as it does for an abandoned ask.
    const received = streamed || failure.received;
    return evidenceOnly(
      failure.reason === 'context_too_large'
        ? { reason: 'context_too_large', notice: CONTEXT_TOO_LARGE_NOTICE }
        : { reason: 'model_failed', notice: EVIDENCE_ONLY_NOTICE },
      {
        llmModel: model.model,
        sent,
        modelError: { reason: failure.reason, message: failure.message },
        ...(received ? { rawOutput: received } : {}),
      },
    );
  }

  const audit = { llmModel: model.model, rawOutput, sent };
  const selection = matchCitations(rawOutput, prompt.sent);
  let sources = selection.sources;
  const droppedSources: string[] = [];
  if (settings.verifyClaims) {
    const threshold = settings.minClaimOverlap;
    sources = sources.filter(source => {
      const supported = isSupported(
        source.documentId,
        selection.matches,
        prompt.sent,
        threshold,
      );
      if (!supported) droppedSources.push(source.title);
      return supported;
    });
  }
  const unmatchedCitations = selection.unmatched;
  const saysNotInDocs = NOT_IN_DOCUMENTS.test(rawOutput);
  const answer = saysNotInDocs
    ? rawOutput.replace(new RegExp(NOT_IN_DOCUMENTS.source, 'g'), ' ').trim()
    : rawOutput.trim();

  // "NOT_IN_DOCUMENTS [Release process]" cites, but answers nothing: no text besides markers.
  if (!sources.length || (saysNotInDocs && !hasTextBesidesMarkers(answer))) {
    if (saysNotInDocs) {
      return {
        ...base,
        ...audit,
        status: 'not_in_knowledge_base',
        grounded: false,
        answer: NOT_IN_KNOWLEDGE_BASE_ANSWER,
        notice: MODEL_FOUND_NO_ANSWER_NOTICE,
        reason: 'model_found_no_answer',
        unmatchedCitations,
        droppedSources,
      };
    }
    const held: NoAnswerNotice = selection.sources.length
      ? { reason: 'unsupported_answer', notice: UNSUPPORTED_ANSWER_NOTICE }
      : { reason: 'uncited_answer', notice: UNCITED_ANSWER_NOTICE };
    return evidenceOnly(held, {
      ...audit,
      unmatchedCitations,
      droppedSources,
    });
  }

  return {
    ...base,
    ...audit,
    status: 'answered',
    grounded: true,
    answer,
    sources,
    unmatchedCitations,
    droppedSources,
  };
}

/** The reply token, also as a markdown renderer escapes it (NOT\\_IN\\_DOCUMENTS). */
const NOT_IN_DOCUMENTS = new RegExp(
  `\\s*\\b${NOT_IN_DOCUMENTS_REPLY.replace(/_/g, '\\\\?_')}\\b\\s*`,
);

/** Whether anything but citation markers, spaces and punctuation is left. */
function hasTextBesidesMarkers(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(stripMarkers(text));
}

function isSupported(
  documentId: string,
  matches: CitationMatch[],
  sent: RetrievedChunk[],
  threshold: number,
): boolean {
  const evidence = contentTerms(
    sent
      .filter(c => c.documentId === documentId)
      .map(c => `${c.sectionPath}\n${c.text}`)
      .join('\n'),
  );
  return matches
    .filter(m => m.documentId === documentId)
    .some(m => {
      const claim = contentTerms(m.claim);
      return (
        claim.size < MIN_JUDGEABLE_TERMS ||
        overlap(claim, evidence).ratio >= threshold
      );
    });
}

function evidenceFor(
  question: string,
  chunks: RetrievedChunk[],
  max: number,
): EvidenceChunk[] {
  return [...chunks]
    .sort((a, b) => a.rank - b.rank)
    .slice(0, max)
    .map(c => ({ ...citedPassage(c, question), score: c.score }));
}
