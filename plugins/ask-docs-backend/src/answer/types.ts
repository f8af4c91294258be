import type { ChunkPassage } from '@askdocs/plugin-ask-docs-common';
import type { ModelFailureReason } from './llm';

/** A chunk handed to the answering layer: already permission- and relevance-filtered. */
export interface RetrievedChunk extends ChunkPassage {
  /** 1 = best. */
  rank: number;
  /** Higher = more relevant. */
  score: number;
}

/**
 * An earlier turn of the asker's thread, as the asker may see it now. Conversation context
 * only: never a context block, never citable.
 */
export interface ConversationTurn {
  question: string;
  /** The model's answer; absent when the turn had none (or it was redacted). */
  answer?: string;
}

/** A message to the chat model. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatCompleteOptions {
  /** Aborts the call; an abort by the caller is rethrown, not classified as model failure. */
  signal?: AbortSignal;
  /** Receives answer text as it streams; when given, the model is called with stream: true. */
  onDelta?: (text: string) => void;
}

/** The one interface through which the plugin talks to a language model (decision record 0004). */
export interface ChatModel {
  /** Model name, recorded with every answer. */
  model: string;
  /** What shapes its answers besides the prompt, recorded with every answer (no key, no URL). */
  settings?: ChatModelSettings;
  /**
   * The last call's failure (after its retries), until a call succeeds; for /health. Absent on
   * models that do not track it.
   */
  lastFailure?(): ModelFailure | undefined;
  /** Whether a call now would not reach the model (it is paused while down: modelBreaker.ts). */
  skipping?(): boolean;
  /** Resolves to the full answer text; rejects with ModelUnavailableError on any model failure. */
  complete(
    messages: ChatMessage[],
    options?: ChatCompleteOptions,
  ): Promise<string>;
}

export interface ChatModelSettings {
  temperature: number;
  maxTokens?: number;
  timeoutMs: number;
  maxRetries: number;
}

/** Why and when the model last failed. */
export interface ModelFailure {
  reason: ModelFailureReason;
  at: Date;
}
