/**
 * A real HTTP server that speaks enough of the OpenAI chat completions API for tests:
 * POST /v1/chat/completions, plain JSON or `stream: true` server-sent events in the OpenAI
 * chunk format. Its reply is programmable per request, including failures (status codes,
 * a hang for timeouts, a dropped connection, a stream that stops half way).
 *
 * Uses only Node built-ins so any package's tests can import it by relative path.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatMessage {
  role: string;
  content: string;
}

/** What the fake received. */
export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  stream: boolean;
  /** The parsed JSON body as sent. */
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  /** True once the client closed the connection before the reply was complete. */
  aborted: boolean;
}

/** How to answer one request. A plain string is an answer text. */
export type FakeReply =
  | string
  /**
   * Answer text; streamed in `chunks` (default: word by word) when the request streams, after
   * `keepAlives` empty deltas (`chunkDelayMs` apart, as every chunk). `finishReason`: 'stop';
   * null for a server that never sets one (it still ends the stream with `[DONE]`).
   */
  | {
      text: string;
      chunks?: string[];
      chunkDelayMs?: number;
      finishReason?: string | null;
      keepAlives?: number;
    }
  /** An HTTP error, e.g. 500 or 429, with an OpenAI-style error body unless `body` is given. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answer (for client timeouts); released by stop(). */
  | { hang: true }
  /** Destroy the connection without a response. */
  | { close: true }
  /** Stream these deltas, then go silent (streaming) or hang (non-streaming). */
  | { streamThenHang: string[] }
  /** Stream these deltas, then drop the connection (non-streaming: drop at once). */
  | { streamThenClose: string[] }
  /**
   * Stream these deltas, then end the response cleanly without a finish reason or `[DONE]`, as
   * a proxy that closes its upstream half way does (non-streaming: drop at once).
   */
  | { streamThenEnd: string[] }
  /** Send this body verbatim (malformed responses). */
  | { raw: string; status?: number; contentType?: string };

/** What OpenAI answers a prompt longer than the model's context window. */
export const CONTEXT_LENGTH_EXCEEDED: FakeReply = {
  status: 400,
  body: {
    error: {
      message: "This model's maximum context length is 4096 tokens.",
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
    },
  },
};

export type FakeBehaviour = (
  request: FakeChatRequest,
) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAIOptions {
  behaviour?: FakeBehaviour;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
}

export interface FakeOpenAI {
  /** Base URL for the SDK, including `/v1`. */
  baseUrl: string;
  /** Number of chat completion requests received (including failed ones). */
  readonly calls: number;
  readonly requests: FakeChatRequest[];
  readonly lastRequest: FakeChatRequest | undefined;
  setBehaviour(behaviour: FakeBehaviour): void;
  /** Forgets recorded requests and the call count. */
  reset(): void;
  /** Stops listening and drops open connections (including hung ones). */
  stop(): Promise<void>;
}

/** Until told otherwise the fake answers with a fixed text. */
const defaultBehaviour: FakeBehaviour = () => 'Fake answer.';

export async function startFakeOpenAI(
  options: FakeOpenAIOptions = {},
): Promise<FakeOpenAI> {
  let behaviour = options.behaviour ?? defaultBehaviour;
  const requests: FakeChatRequest[] = [];
  let calls = 0;
  let sequence = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch(error => {
      if (!res.headersSent) {
        sendJson(res, 500, {
          error: { message: String(error), type: 'server_error' },
        });
      } else {
        res.destroy();
      }
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      await readBody(req);
      sendJson(res, 404, {
        error: {
          message: `No route ${req.method} ${path}`,
          type: 'invalid_request_error',
        },
      });
      return;
    }
    calls++;
    const rawBody = await readBody(req);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody);
    } catch {
      sendJson(res, 400, {
        error: { message: 'Body is not JSON', type: 'invalid_request_error' },
      });
      return;
    }
    const request: FakeChatRequest = {
      model: String(body.model ?? ''),
      messages: Array.isArray(body.messages)
        ? (body.messages as FakeChatMessage[])
        : [],
      stream: body.stream === true,
      body,
      headers: req.headers,
      aborted: false,
    };
    requests.push(request);
    res.on('close', () => {
      if (!res.writableEnded) request.aborted = true;
    });

    if (
      options.apiKey &&
      req.headers.authorization !== `Bearer ${options.apiKey}`
    ) {
      sendJson(res, 401, {
        error: {
          message: 'Incorrect API key',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      });
      return;
    }

    const reply = normalise(await behaviour(request));
    const id = `chatcmpl-fake-${++sequence}`;
    const created = Math.floor(Date.now() / 1000);

    if ('hang' in reply) return; // keep the socket open until the client gives up or stop()
    if ('close' in reply) {
      req.socket.destroy();
      return;
    }
    if ('status' in reply && !('raw' in reply)) {
      const errorBody = reply.body ?? {
        error: {
          message: `Fake failure ${reply.status}`,
          type: reply.status >= 500 ? 'server_error' : 'requests',
          code: null,
        },
      };
      sendJson(res, reply.status, errorBody, reply.headers);
      return;
    }
    if ('raw' in reply) {
      res.writeHead(reply.status ?? 200, {
        'content-type': reply.contentType ?? 'application/json',
      });
      res.end(reply.raw);
      return;
    }

    if (
      ('streamThenClose' in reply || 'streamThenEnd' in reply) &&
      !request.stream
    ) {
      req.socket.destroy();
      return;
    }
    const partial =
      'streamThenHang' in reply ||
      'streamThenClose' in reply ||
      'streamThenEnd' in reply;
    const chunks =
      'streamThenHang' in reply
        ? reply.streamThenHang
        : 'streamThenClose' in reply
        ? reply.streamThenClose
        : 'streamThenEnd' in reply
        ? reply.streamThenEnd
        : reply.chunks ?? splitWords(reply.text);
    const text = 'text' in reply ? reply.text : chunks.join('');
    const finishReason =
      'finishReason' in reply && reply.finishReason !== undefined
        ? reply.finishReason
        : 'stop';
    if (!request.stream) {
      if (partial) return; // hang
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: request.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text },
            finish_reason: finishReason,
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const event = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: request.model,
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      })}\n\n`;
    res.write(event({ role: 'assistant', content: '' }, null));
    const delay = 'chunkDelayMs' in reply ? reply.chunkDelayMs ?? 0 : 0;
    const keepAlives = 'keepAlives' in reply ? reply.keepAlives ?? 0 : 0;
    for (let i = 0; i < keepAlives; i++) {
      if (delay) await new Promise(r => setTimeout(r, delay));
      if (res.destroyed) return;
      res.write(event({}, null));
    }
    for (const chunk of chunks) {
      if (delay) await new Promise(r => setTimeout(r, delay));
      if (res.destroyed) return;
      res.write(event({ content: chunk }, null));
    }
    if ('streamThenHang' in reply) return;
    if ('streamThenClose' in reply) {
      // Let the written deltas reach the client before the connection drops.
      await new Promise(r => setTimeout(r, 20));
      res.destroy();
      return;
    }
    if ('streamThenEnd' in reply) {
      res.end();
      return;
    }
    res.write(event({}, finishReason));
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get calls() {
      return calls;
    },
    get requests() {
      return requests;
    },
    get lastRequest() {
      return requests[requests.length - 1];
    },
    setBehaviour(next) {
      behaviour = next;
    },
    reset() {
      calls = 0;
      requests.length = 0;
    },
    stop() {
      return new Promise<void>(resolve => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function normalise(reply: FakeReply): Exclude<FakeReply, string> {
  return typeof reply === 'string' ? { text: reply } : reply;
}

/** Splits text into word-sized deltas that concatenate back to the text. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', part => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}
