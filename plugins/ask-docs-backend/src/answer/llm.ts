import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
} from 'openai';
import type { Config } from '@backstage/config';
import type { ModelFailureReason } from '@askdocs/plugin-ask-docs-common';
import type { LoggerService } from '@backstage/backend-plugin-api';
import { CustomErrorBase } from '@backstage/errors';
import { readAskDocsConfig } from '../settings';
import {
  DEFAULT_MODEL_BREAKER,
  ModelBreaker,
  ModelBreakerOptions,
} from './modelBreaker';
import type {
  ChatCompleteOptions,
  ChatMessage,
  ChatModel,
  ModelFailure,
} from './types';

/**
 * The only place that talks to a language model (decision record 0004). Everything above it
 * sees `ChatModel` and `ModelUnavailableError`, never the SDK or HTTP.
 */

/** Settings under `askDocs.llm`. */
export interface ChatModelOptions {
  /**
   * OpenAI-compatible endpoint including `/v1`. Always named: the SDK's default would be
   * OPENAI_BASE_URL or api.openai.com, which a variable left unset must not choose.
   */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per attempt: whole call when not streaming; first byte and every gap when streaming. */
  timeoutMs: number;
  /** Extra attempts after a retryable failure (timeout, 5xx, 429, connection). */
  maxRetries: number;
  temperature: number;
  maxTokens?: number;
}

export { DEFAULT_LLM_TIMEOUT_MS, DEFAULT_LLM_MAX_RETRIES } from '../settings';
// Longest wait between attempts: a longer Retry-After ends the call instead (bounded worst case).
const MAX_BACKOFF_MS = 2_000;

/** Why the model could not answer (one list, in the common package: /health reports it). */
export type { ModelFailureReason };

/** Any failure of the model; callers fall back to evidence-only answers. */
export class ModelUnavailableError extends CustomErrorBase {
  name = 'ModelUnavailableError' as const;
  /** Answer text the model sent before it failed (a cut-off answer): kept for the audit. */
  received?: string;
  constructor(
    message: string,
    readonly reason: ModelFailureReason,
    readonly details: {
      status?: number;
      attempts?: number;
      retryAfterMs?: number;
    } = {},
    cause?: unknown,
  ) {
    super(message, cause);
  }
}

/**
 * The chat model configured under `askDocs.llm`, or undefined when none is. For scripts that
 * start from a Config (test/eval); the plugin passes readAskDocsConfig's `llm` slice instead.
 */
export function createChatModel(
  config: Config,
  deps: { logger?: LoggerService } = {},
): ChatModel | undefined {
  const options = readAskDocsConfig(config).llm;
  return options ? createChatModelFromOptions(options, deps) : undefined;
}

export function createChatModelFromOptions(
  options: ChatModelOptions,
  deps: {
    logger?: LoggerService;
    /** When calls stop while the model is down (modelBreaker.ts); `now` for tests. */
    breaker?: ModelBreakerOptions;
    now?: () => number;
  } = {},
): ChatModel {
  const now = deps.now ?? Date.now;
  const breaker = new ModelBreaker(
    deps.breaker ?? DEFAULT_MODEL_BREAKER,
    now,
    deps.logger,
  );
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    // Retries and timeouts are ours (below) so the worst case is bounded and known.
    maxRetries: 0,
    timeout: options.timeoutMs,
    logLevel: 'off',
    fetch: fetchNotingDone,
  });

  async function attempt(
    messages: ChatMessage[],
    callerSignal: AbortSignal | undefined,
    onDelta: ((text: string) => void) | undefined,
  ): Promise<string> {
    // Our own deadline: the SDK timeout stops at response headers, a hung body would wait forever.
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => deadline.abort(), options.timeoutMs);
    };
    arm();
    const signal = callerSignal
      ? AbortSignal.any([callerSignal, deadline.signal])
      : deadline.signal;
    const body = {
      model: options.model,
      messages,
      temperature: options.temperature,
      ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
    };
    try {
      if (!onDelta) {
        const completion = await client.chat.completions.create(
          { ...body, stream: false },
          { signal },
        );
        const choice = completion?.choices?.[0];
        const text = choice?.message?.content;
        checkFinished(choice?.finish_reason, text);
        if (typeof text !== 'string' || !text.trim()) {
          throw new ModelUnavailableError(
            'The model returned no answer text',
            'bad_response',
          );
        }
        return text;
      }
      const { data: stream, response } = await client.chat.completions
        .create({ ...body, stream: true }, { signal })
        .withResponse();
      let text = '';
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        const choice = chunk?.choices?.[0];
        // Streaming: the timeout is the longest silence, not the whole answer. Only chunks that
        // carry something count: empty keep-alive deltas must not hold the call open forever.
        if (carriesProgress(choice)) arm();
        finish = choice?.finish_reason ?? finish;
        const delta = choice?.delta?.content;
        if (typeof delta === 'string' && delta) {
          text += delta;
          onDelta(delta);
        }
      }
      // An aborted stream may simply end instead of throwing: a cut-off answer is no answer.
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (deadline.signal.aborted)
        throw new Error('stream aborted by deadline');
      // A proxy that closes its upstream half way ends the stream cleanly: with neither a
      // finish reason nor the closing [DONE] (some servers send only that) the text may stop
      // mid-sentence, so it is no answer.
      if (
        (finish === null || finish === undefined) &&
        !streamsDone.get(response)?.done
      ) {
        const cut = new ModelUnavailableError(
          'The model stream ended before the answer was finished (no finish reason)',
          'incomplete',
        );
        cut.received = text;
        throw cut;
      }
      checkFinished(finish, text);
      if (!text.trim()) {
        throw new ModelUnavailableError(
          'The model streamed no answer text',
          'bad_response',
        );
      }
      return text;
    } catch (error) {
      if (callerSignal?.aborted) throw error;
      if (deadline.signal.aborted) {
        throw new ModelUnavailableError(
          `The model did not respond within ${options.timeoutMs} ms`,
          'timeout',
          {},
          error,
        );
      }
      throw classifyModelError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  let lastFailure: ModelFailure | undefined;
  return {
    model: options.model,
    settings: {
      temperature: options.temperature,
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
    },
    lastFailure: () => lastFailure,
    skipping: () => breaker.skipping(),
    async complete(messages: ChatMessage[], callOptions?: ChatCompleteOptions) {
      const admitted = breaker.admit();
      if ('skipUntil' in admitted) {
        // Not a failure of this call: lastFailure keeps the one that opened the breaker.
        throw new ModelUnavailableError(
          'Not called: the model failed its last calls; it is tried again after ' +
            admitted.skipUntil.toISOString(),
          'circuit_open',
          { attempts: 0 },
        );
      }
      const startedAt = now();
      try {
        const text = await completeWithRetries(messages, callOptions);
        breaker.record(undefined, startedAt, admitted.probe);
        return text;
      } catch (error) {
        if (error instanceof ModelUnavailableError)
          breaker.record(error.reason, startedAt, admitted.probe);
        else if (admitted.probe) breaker.abandoned(); // the asker left mid-probe
        throw error;
      }
    },
  };

  async function completeWithRetries(
    messages: ChatMessage[],
    { signal, onDelta }: ChatCompleteOptions = {},
  ): Promise<string> {
    let streamed = false;
    const forward = onDelta
      ? (text: string) => {
          streamed = true;
          onDelta(text);
        }
      : undefined;
    for (let attemptNo = 1; ; attemptNo++) {
      try {
        const text = await attempt(messages, signal, forward);
        lastFailure = undefined;
        return text;
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        const failure =
          error instanceof ModelUnavailableError
            ? error
            : classifyModelError(error);
        failure.details.attempts = attemptNo;
        const { retryAfterMs } = failure.details;
        const wait = Math.min(
          retryAfterMs ?? 250 * 2 ** (attemptNo - 1),
          MAX_BACKOFF_MS,
        );
        // Text already streamed to the asker cannot be taken back, so no retry after it; nor
        // before a server's Retry-After longer than we wait (an early retry is refused again).
        if (
          !isRetryable(failure) ||
          streamed ||
          attemptNo > options.maxRetries ||
          (retryAfterMs !== undefined && retryAfterMs > MAX_BACKOFF_MS)
        ) {
          lastFailure = { reason: failure.reason, at: new Date() };
          throw failure;
        }
        deps.logger?.warn(
          `Language model call failed (${failure.reason}: ${failure.message}); retrying in ` +
            `${wait} ms`,
        );
        await sleep(wait, signal);
      }
    }
  }
}

/** Whether each event stream fetchNotingDone passed on has sent its closing `data: [DONE]`. */
const streamsDone = new WeakMap<Response, { done: boolean }>();

/**
 * fetch, noting in streamsDone when an event stream's body sends `data: [DONE]`: the SDK reads
 * and drops that line, and it is what tells a finished stream without a finish reason from one
 * cut off by a proxy.
 */
const fetchNotingDone: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || !type.includes('text/event-stream')) return response;
  const state = { done: false };
  const decoder = new TextDecoder();
  let tail = '';
  const noted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!state.done) {
          const text = tail + decoder.decode(chunk, { stream: true });
          if (/(?:^|\n)data: ?\[DONE\]/.test(text)) state.done = true;
          // Enough to find the line again when it is split across chunks.
          tail = text.slice(-16);
        }
        controller.enqueue(chunk);
      },
    }),
  );
  const passed = new Response(noted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  streamsDone.set(passed, state);
  return passed;
};

/** The model stopped before its answer was complete: a cut-off answer is no answer. */
function checkFinished(
  reason: string | null | undefined,
  text: string | null | undefined,
) {
  if (reason === 'length' || reason === 'content_filter') {
    const cut = new ModelUnavailableError(
      reason === 'length'
        ? 'The answer was cut off at the token limit (askDocs.llm.maxTokens)'
        : "The model's content filter stopped the answer",
      'incomplete',
    );
    if (typeof text === 'string' && text) cut.received = text;
    throw cut;
  }
}

/** A streamed chunk with text, a tool call, reasoning or a finish: not an empty keep-alive. */
function carriesProgress(choice: any): boolean {
  if (!choice) return false;
  if (choice.finish_reason) return true;
  return Object.entries(choice.delta ?? {}).some(
    ([key, value]) =>
      key !== 'role' &&
      value !== null &&
      value !== undefined &&
      value !== '' &&
      !(Array.isArray(value) && value.length === 0),
  );
}

function isRetryable(error: ModelUnavailableError): boolean {
  return ['timeout', 'rate_limited', 'server_error', 'connection'].includes(
    error.reason,
  );
}

/** Maps SDK, network and parsing errors onto ModelUnavailableError. */
export function classifyModelError(error: unknown): ModelUnavailableError {
  if (error instanceof ModelUnavailableError) return error;
  const unavailable = (
    message: string,
    reason: ModelFailureReason,
    details: ModelUnavailableError['details'] = {},
  ) => new ModelUnavailableError(message, reason, details, error);
  if (error instanceof APIConnectionTimeoutError) {
    return unavailable('The model request timed out', 'timeout');
  }
  if (error instanceof APIConnectionError) {
    return unavailable(
      `Could not reach the model: ${error.message}`,
      'connection',
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    if (exceedsContext(error)) {
      return unavailable(
        `The prompt is longer than the model's context window (${status}): ${error.message}`,
        'context_too_large',
        { status },
      );
    }
    const details = { status, retryAfterMs: retryAfterMs(error.headers) };
    return unavailable(...statusFailure(status, error.message), details);
  }
  if (error instanceof APIError) {
    // An error event inside a stream, without an HTTP status.
    return unavailable(
      `The model reported an error: ${error.message}`,
      'bad_response',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  // Not every TypeError: one from a bug of ours is no network failure to retry.
  if (/fetch failed|socket|ECONN|terminated|EPIPE|closed/i.test(message)) {
    return unavailable(
      `Connection to the model failed: ${message}`,
      'connection',
    );
  }
  return unavailable(`Unusable model response: ${message}`, 'bad_response');
}

// How OpenAI-compatible servers word a prompt over the context window: OpenAI and Azure
// (code context_length_exceeded), vLLM ("maximum context length"), llama.cpp
// ("exceeds the available context size"), others ("prompt is too long", "too many tokens").
const CONTEXT_EXCEEDED = new RegExp(
  'context[_ ]length|context (?:window|size)|maximum context|prompt is too long|' +
    'too many (?:input )?tokens',
  'i',
);

/** A 400 or 413 that says the prompt does not fit: the operator's budget, not a bad key. */
function exceedsContext(error: APIError): boolean {
  if (error.status !== 400 && error.status !== 413) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'context_length_exceeded') return true;
  return CONTEXT_EXCEEDED.test(error.message ?? '');
}

/** What an HTTP error status from the model means: a message and the reason. */
function statusFailure(
  status: number,
  detail: string,
): [string, ModelFailureReason] {
  if (status === 429)
    return ['The model is rate limited (429)', 'rate_limited'];
  if (status === 408) return ['The model request timed out (408)', 'timeout'];
  if (status >= 500) return [`The model failed (${status})`, 'server_error'];
  return [`The model refused the request (${status}): ${detail}`, 'rejected'];
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const value = headers?.get?.('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
