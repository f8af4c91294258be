import { Config, ConfigReader } from '@backstage/config';
import { readAskDocsConfig } from '../settings';
import { FakeOpenAI, startFakeOpenAI } from '../../../../test/fake-openai';
import {
  createChatModel,
  createChatModelFromOptions,
  ModelUnavailableError,
} from './llm';
import type { ChatModel } from './types';

const readChatModelOptions = (config: Config) => readAskDocsConfig(config).llm;

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'What is the rollback command?' },
];

async function failure(
  promise: Promise<unknown>,
): Promise<ModelUnavailableError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelUnavailableError);
    return error as ModelUnavailableError;
  }
  throw new Error('expected the call to fail');
}

describe('readChatModelOptions / createChatModel', () => {
  it('is undefined without askDocs.llm, without model or without apiKey', () => {
    expect(createChatModel(new ConfigReader({}))).toBeUndefined();
    expect(
      createChatModel(new ConfigReader({ askDocs: { llm: { apiKey: 'k' } } })),
    ).toBeUndefined();
    // What an unset ${OPENAI_API_KEY} leaves behind.
    expect(
      createChatModel(new ConfigReader({ askDocs: { llm: { model: 'm' } } })),
    ).toBeUndefined();
    expect(
      createChatModel(
        new ConfigReader({ askDocs: { llm: { model: 'm', apiKey: ' ' } } }),
      ),
    ).toBeUndefined();
  });

  it('applies defaults and reads overrides', () => {
    expect(
      readChatModelOptions(
        new ConfigReader({
          askDocs: { llm: { model: 'm', apiKey: 'k', baseUrl: 'http://x/v1' } },
        }),
      ),
    ).toEqual({
      baseUrl: 'http://x/v1',
      apiKey: 'k',
      model: 'm',
      timeoutMs: 30000,
      maxRetries: 1,
      temperature: 0,
      maxTokens: undefined,
    });
    const options = readChatModelOptions(
      new ConfigReader({
        askDocs: {
          llm: {
            model: 'm',
            apiKey: 'k',
            baseUrl: 'http://x/v1',
            timeoutMs: 5,
            maxRetries: 0,
            temperature: 0.5,
            maxTokens: 100,
          },
        },
      }),
    );
    expect(options).toMatchObject({
      baseUrl: 'http://x/v1',
      timeoutMs: 5,
      maxRetries: 0,
      temperature: 0.5,
      maxTokens: 100,
    });
  });

  it('rejects nonsensical limits', () => {
    expect(() =>
      readChatModelOptions(
        new ConfigReader({
          askDocs: { llm: { model: 'm', apiKey: 'k', timeoutMs: 0 } },
        }),
      ),
    ).toThrow(/timeoutMs/);
    expect(() =>
      readChatModelOptions(
        new ConfigReader({
          askDocs: { llm: { model: 'm', apiKey: 'k', maxRetries: -1 } },
        }),
      ),
    ).toThrow(/maxRetries/);
  });
});

describe('chat model against a fake OpenAI server', () => {
  let fake: FakeOpenAI;
  let model: ChatModel;
  const make = (
    overrides: {
      timeoutMs?: number;
      maxRetries?: number;
      apiKey?: string;
    } = {},
  ) =>
    createChatModelFromOptions({
      baseUrl: fake.baseUrl,
      apiKey: overrides.apiKey ?? 'test-key',
      model: 'fake-model',
      timeoutMs: overrides.timeoutMs ?? 2000,
      maxRetries: overrides.maxRetries ?? 1,
      temperature: 0,
      maxTokens: 300,
    });

  beforeEach(async () => {
    fake = await startFakeOpenAI({ apiKey: 'test-key' });
    model = make();
  });
  afterEach(async () => {
    await fake.stop();
  });

  it('returns the answer and sends model, messages, temperature, max tokens and key', async () => {
    fake.setBehaviour(req => `You asked: ${req.messages[1].content}`);
    await expect(model.complete(messages)).resolves.toBe(
      'You asked: What is the rollback command?',
    );
    expect(model.model).toBe('fake-model');
    expect(fake.calls).toBe(1);
    expect(fake.lastRequest).toMatchObject({
      model: 'fake-model',
      stream: false,
      messages,
      body: { temperature: 0, max_tokens: 300 },
    });
    expect(fake.lastRequest!.headers.authorization).toBe('Bearer test-key');
  });

  it('streams deltas whose concatenation is the final text', async () => {
    const text =
      'Run the rollback script [Release process › Rollback]. Then check the dashboards.';
    fake.setBehaviour(() => text);
    const deltas: string[] = [];
    const result = await model.complete(messages, {
      onDelta: d => deltas.push(d),
    });
    expect(fake.lastRequest!.stream).toBe(true);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(text);
    expect(result).toBe(text);
  });

  it('classifies 500 as server_error after retrying once', async () => {
    fake.setBehaviour(() => ({ status: 500 }));
    const error = await failure(model.complete(messages));
    expect(error.reason).toBe('server_error');
    expect(error.details).toMatchObject({ status: 500, attempts: 2 });
    expect(fake.calls).toBe(2);
  });

  it('makes every configured retry, waiting at most 2 s between them', async () => {
    fake.setBehaviour(() => ({ status: 502 }));
    const error = await failure(make({ maxRetries: 5 }).complete(messages));
    // Waits of 250, 500, 1000, 2000 and 2000 ms: the fifth retry is made too.
    expect(error.details.attempts).toBe(6);
    expect(fake.calls).toBe(6);
  }, 15_000);

  it('recovers when the retry succeeds', async () => {
    fake.setBehaviour(() =>
      fake.calls === 1 ? { status: 503 } : 'Second time lucky.',
    );
    await expect(model.complete(messages)).resolves.toBe('Second time lucky.');
    expect(fake.calls).toBe(2);
  });

  it('classifies 429 as rate_limited and does not retry before a long Retry-After', async () => {
    fake.setBehaviour(() => ({
      status: 429,
      headers: { 'retry-after': '3600' },
    }));
    const error = await failure(model.complete(messages));
    expect(error.reason).toBe('rate_limited');
    // An early retry would be refused again: one call, failed at once.
    expect(fake.calls).toBe(1);
    // A short Retry-After is waited for, and retried.
    fake.setBehaviour(() =>
      fake.calls === 2
        ? { status: 429, headers: { 'retry-after': '1' } }
        : 'After the wait.',
    );
    const retried = Date.now();
    await expect(model.complete(messages)).resolves.toBe('After the wait.');
    expect(fake.calls).toBe(3);
    expect(Date.now() - retried).toBeGreaterThanOrEqual(900);
  });

  it('fails an answer cut off at the token limit or by a filter, without retrying', async () => {
    for (const finishReason of ['length', 'content_filter']) {
      for (const stream of [false, true]) {
        const calls = fake.calls;
        fake.setBehaviour(() => ({ text: 'Then you must NOT', finishReason }));
        const error = await failure(
          model.complete(messages, stream ? { onDelta: () => {} } : {}),
        );
        expect(error.reason).toBe('incomplete');
        expect(fake.calls).toBe(calls + 1);
        // What came before the cut is kept for the audit record.
        expect(error.received).toBe('Then you must NOT');
      }
    }
    expect(model.lastFailure?.()).toEqual({
      reason: 'incomplete',
      at: expect.any(Date),
    });
    fake.setBehaviour(() => 'Complete.');
    await model.complete(messages);
    expect(model.lastFailure?.()).toBeUndefined();
  });

  it('does not let empty keep-alive chunks hold a silent stream open', async () => {
    fake.setBehaviour(() => ({
      text: 'Late answer.',
      keepAlives: 10,
      chunkDelayMs: 100,
    }));
    const error = await failure(
      make({ timeoutMs: 300, maxRetries: 0 }).complete(messages, {
        onDelta: () => {},
      }),
    );
    expect(error.reason).toBe('timeout');
    // Text arriving within the timeout of each other keeps it open.
    fake.setBehaviour(() => ({ text: 'a b c d e f', chunkDelayMs: 100 }));
    await expect(
      make({ timeoutMs: 300, maxRetries: 0 }).complete(messages, {
        onDelta: () => {},
      }),
    ).resolves.toBe('a b c d e f');
  });

  it('does not retry a rejected request (bad key)', async () => {
    const error = await failure(make({ apiKey: 'wrong' }).complete(messages));
    expect(error.reason).toBe('rejected');
    expect(error.details.status).toBe(401);
    expect(fake.calls).toBe(1);
  });

  it('times out a hanging server, once per attempt', async () => {
    fake.setBehaviour(() => ({ hang: true }));
    const error = await failure(
      make({ timeoutMs: 200, maxRetries: 1 }).complete(messages),
    );
    expect(error.reason).toBe('timeout');
    expect(error.details.attempts).toBe(2);
    expect(fake.calls).toBe(2);
  });

  it('tells a prompt over the context window from a rejected request; no retry', async () => {
    const replies = [
      // OpenAI and Azure: the error code (the message alone would not say it).
      {
        status: 400,
        body: {
          error: {
            message: 'Please reduce the length of the messages.',
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
          },
        },
      },
      // vLLM and llama.cpp: only the message says it.
      {
        status: 400,
        body: {
          object: 'error',
          message:
            "This model's maximum context length is 4096 tokens. However, you requested " +
            '6120 tokens in the messages.',
          type: 'BadRequestError',
        },
      },
      {
        status: 400,
        body: {
          error: {
            code: 400,
            message: 'the request exceeds the available context size',
            type: 'exceed_context_size_error',
          },
        },
      },
    ];
    for (const reply of replies) {
      fake.reset();
      fake.setBehaviour(() => reply);
      const error = await failure(model.complete(messages));
      expect(error.reason).toBe('context_too_large');
      expect(error.details.status).toBe(400);
      expect(fake.calls).toBe(1);
    }
    // Any other refused request stays `rejected`, even one that names tokens or length.
    for (const message of [
      'The model `gpt-5` does not exist',
      'max_tokens is too large: 100000. This model supports at most 4096 completion tokens',
      'Invalid value for length',
    ]) {
      fake.setBehaviour(() => ({
        status: 400,
        body: { error: { message, type: 'invalid_request_error' } },
      }));
      expect((await failure(model.complete(messages))).reason).toBe('rejected');
    }
  });

  it('times out a stream that goes silent and does not retry after text was streamed', async () => {
    fake.setBehaviour(() => ({ streamThenHang: ['Partial ', 'answer'] }));
    const deltas: string[] = [];
    const error = await failure(
      make({ timeoutMs: 200, maxRetries: 2 }).complete(messages, {
        onDelta: d => deltas.push(d),
      }),
    );
    expect(error.reason).toBe('timeout');
    expect(deltas.join('')).toBe('Partial answer');
    expect(fake.calls).toBe(1);
  });

  it('treats a stream cut off mid-way as a failure, not as a short answer', async () => {
    fake.setBehaviour(() => ({ streamThenClose: ['Partial ', 'answer'] }));
    const deltas: string[] = [];
    const error = await failure(
      model.complete(messages, { onDelta: d => deltas.push(d) }),
    );
    expect(error.reason).toBe('connection');
    expect(deltas.join('')).toBe('Partial answer');
    expect(fake.calls).toBe(1);
  });

  it('fails a stream that ends cleanly without a finish reason, without retrying', async () => {
    fake.setBehaviour(() => ({ streamThenEnd: ['Partial ', '[1] answer'] }));
    const deltas: string[] = [];
    const error = await failure(
      model.complete(messages, { onDelta: d => deltas.push(d) }),
    );
    expect(error.reason).toBe('incomplete');
    expect(error.received).toBe('Partial [1] answer');
    expect(deltas.join('')).toBe('Partial [1] answer');
    expect(fake.calls).toBe(1);
    // The same text with its finish reason is an answer, and so is one from a server that
    // sets no finish reason but closes the stream with [DONE].
    for (const finishReason of ['stop', null]) {
      fake.setBehaviour(() => ({ text: 'Partial [1] answer', finishReason }));
      await expect(
        model.complete(messages, { onDelta: () => {} }),
      ).resolves.toBe('Partial [1] answer');
    }
  });

  it('classifies a dropped connection as connection', async () => {
    fake.setBehaviour(() => ({ close: true }));
    const error = await failure(model.complete(messages));
    expect(error.reason).toBe('connection');
    expect(fake.calls).toBe(2);
  });

  it('classifies a stopped server (connection refused) as connection', async () => {
    await fake.stop();
    const error = await failure(make({ maxRetries: 0 }).complete(messages));
    expect(error.reason).toBe('connection');
  });

  it('classifies malformed and empty responses as bad_response', async () => {
    fake.setBehaviour(() => ({ raw: '{"choices": [', status: 200 }));
    expect((await failure(model.complete(messages))).reason).toBe(
      'bad_response',
    );
    fake.setBehaviour(() => '   ');
    expect((await failure(model.complete(messages))).reason).toBe(
      'bad_response',
    );
    fake.setBehaviour(() => ({
      raw: JSON.stringify({ id: 'x', choices: [] }),
    }));
    expect((await failure(model.complete(messages))).reason).toBe(
      'bad_response',
    );
  });

  it('rethrows an abort by the caller instead of classifying it', async () => {
    fake.setBehaviour(() => ({ hang: true }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await model
      .complete(messages, { signal: controller.signal })
      .then(
        () => 'resolved',
        e => e,
      );
    expect(outcome).not.toBe('resolved');
    expect(outcome).not.toBeInstanceOf(ModelUnavailableError);
    expect(controller.signal.aborted).toBe(true);
    expect(fake.calls).toBe(1);
  });

  it('stops calling a model that failed every call for a while, and tries it again', async () => {
    let clock = 0;
    const breaking = createChatModelFromOptions(
      {
        baseUrl: fake.baseUrl,
        apiKey: 'test-key',
        model: 'fake-model',
        timeoutMs: 2000,
        maxRetries: 0,
        temperature: 0,
      },
      {
        breaker: {
          failures: 3,
          minOutageMs: 30_000,
          pauseMs: 60_000,
          maxPauseMs: 60_000,
        },
        now: () => clock,
      },
    );
    fake.setBehaviour(() => ({ status: 502 }));
    for (let i = 0; i < 3; i++) {
      await failure(breaking.complete(messages));
      clock += 15_000;
    }
    expect(fake.calls).toBe(3);
    expect(breaking.skipping?.()).toBe(true);
    const skipped = await failure(breaking.complete(messages));
    expect(skipped.reason).toBe('circuit_open');
    expect(skipped.details.attempts).toBe(0);
    expect(fake.calls).toBe(3); // no request
    // /health still names the failure that opened it.
    expect(breaking.lastFailure?.()?.reason).toBe('server_error');

    clock += 60_000;
    fake.setBehaviour(() => 'Back again.');
    await expect(breaking.complete(messages)).resolves.toBe('Back again.');
    await expect(breaking.complete(messages)).resolves.toBe('Back again.');
    expect(fake.calls).toBe(5);
  });
});
