import type { AskStreamEvent } from '@askdocs/plugin-ask-docs-common';
import { ResponseError } from '@backstage/errors';
import { mockApis } from '@backstage/test-utils';
import { AskDocsClient } from './AskDocsClient';
import {
  describeError,
  InvalidAnswerIdError,
  isAbort,
  isForbidden,
  isRetryable,
  MalformedStreamError,
} from './errors';
import { groundedResponse } from '../testUtils/fixtures';
import { untilAborted } from '../testUtils/mockApi';
import { askDocsTranslationRef } from '../translation';

const BASE = 'http://backend/api/ask-docs';
/** The English default texts, as a component gets them. */
const { t } = mockApis.translation().getTranslation(askDocsTranslationRef);

function sseResponse(pieces: string[], init: ResponseInit = {}) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream' },
    ...init,
  });
}

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A Backstage error body (as the backend's error handler sends it) with its status. */
function errorResponse(
  status: number,
  error: { name: string; message: string },
  request?: { method: string; url: string },
) {
  return jsonResponse(
    { error, request, response: { statusCode: status } },
    status,
  );
}

function setup(
  respond: (url: string, init?: RequestInit) => Response | Promise<Response>,
) {
  const fetch = jest.fn(async (url: string, init?: RequestInit) =>
    respond(url, init),
  );
  const client = new AskDocsClient({
    discoveryApi: {
      getBaseUrl: async (id: string) => `http://backend/api/${id}`,
    },
    fetchApi: { fetch: fetch as any },
  });
  return { client, fetch };
}

/** A backend that never answers: like fetch, the request rejects only once it is aborted. */
/** A fetch that answers only by rejecting, as fetch does, once its request is aborted. */
function fetchUntilAborted(
  _url: string,
  init?: RequestInit,
): Promise<Response> {
  return untilAborted(init?.signal ?? undefined);
}

async function collect(iterable: AsyncIterable<AskStreamEvent>) {
  const events: AskStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('AskDocsClient', () => {
  it('posts the question and scope as JSON to /v1/ask', async () => {
    const { client, fetch } = setup(() => jsonResponse(groundedResponse));
    const response = await client.ask({
      question: 'How do I roll back?',
      scope: { entityRefs: ['component:default/payments'] },
    });
    expect(response.id).toBe('a-1');
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe(`${BASE}/v1/ask`);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      question: 'How do I roll back?',
      scope: { entityRefs: ['component:default/payments'] },
    });
  });

  it('maps a Backstage error body to a ResponseError with the server message', async () => {
    const { client } = setup(() =>
      errorResponse(
        400,
        { name: 'InputError', message: 'question must not be empty' },
        { method: 'POST', url: '/v1/ask' },
      ),
    );
    const error = await client.ask({ question: '' }).catch(e => e);
    expect(ResponseError.is(error)).toBe(true);
    expect(error.statusCode).toBe(400);
    expect(error.cause.name).toBe('InputError');
    expect(describeError(error, t)).toBe('question must not be empty');
    expect(isForbidden(error)).toBe(false);
  });

  it('describes a proxy error page by its status, not its markup', async () => {
    const page =
      '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    const { client } = setup(
      () =>
        new Response(page, {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    const error = await collect(client.askStream({ question: 'q' })).catch(
      e => e,
    );
    expect(ResponseError.is(error)).toBe(true);
    expect(describeError(error, t)).toBe('Request failed (502 Bad Gateway)');
  });

  it('describes a JSON body that is not a Backstage error by its status', async () => {
    const { client } = setup(
      () =>
        new Response(JSON.stringify({ message: 'body too large' }), {
          status: 413,
          statusText: 'Payload Too Large',
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const error = await client.ask({ question: 'q' }).catch(e => e);
    expect(describeError(error, t)).toBe(
      'Request failed (413 Payload Too Large)',
    );
  });

  it('describes an error page without a status text by its code', async () => {
    const { client } = setup(
      () => new Response('<html>Gateway Timeout</html>', { status: 504 }),
    );
    const error = await client.ask({ question: 'q' }).catch(e => e);
    expect(describeError(error, t)).toBe('Request failed (504)');
  });

  it('parses streamed events split at arbitrary points', async () => {
    const done = JSON.stringify({ type: 'done', response: groundedResponse });
    const { client, fetch } = setup(() =>
      sseResponse([
        'data: {"type":"status","phase":"retrieving"}\n\n',
        'data: {"type":"delta","te',
        'xt":"Roll back "}\n\ndata: {"type":"delta","text":"now."}\n',
        `\ndata: ${done.slice(0, 20)}`,
        `${done.slice(20)}\n\n`,
      ]),
    );
    const events = await collect(
      client.askStream({ question: 'How do I roll back?' }),
    );
    expect(events).toEqual([
      { type: 'status', phase: 'retrieving' },
      { type: 'delta', text: 'Roll back ' },
      { type: 'delta', text: 'now.' },
      { type: 'done', response: groundedResponse },
    ]);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe(`${BASE}/v1/ask/stream`);
    expect((init?.headers as Record<string, string>).Accept).toBe(
      'text/event-stream',
    );
  });

  it('stops at an error event and skips unknown event types', async () => {
    const { client } = setup(() =>
      sseResponse([
        'data: {"type":"heartbeat"}\n\n',
        'data: {"type":"error","message":"retrieval failed"}\n\n',
        'data: {"type":"delta","text":"must not be read"}\n\n',
      ]),
    );
    await expect(collect(client.askStream({ question: 'q' }))).resolves.toEqual(
      [{ type: 'error', message: 'retrieval failed' }],
    );
  });

  it('fails when the stream ends before the final event', async () => {
    const { client } = setup(() =>
      sseResponse(['data: {"type":"delta","text":"half an ans"}\n\n']),
    );
    await expect(collect(client.askStream({ question: 'q' }))).rejects.toThrow(
      /ended before the answer was complete/,
    );
  });

  it('reports a stream cut off mid-event as ended early, not as malformed', async () => {
    const { client } = setup(() =>
      sseResponse([
        'data: {"type":"status","phase":"generating"}\n\n',
        'data: {"type":"done","respo',
      ]),
    );
    await expect(collect(client.askStream({ question: 'q' }))).rejects.toThrow(
      'The answer stream ended before the answer was complete',
    );
  });

  it('rejects malformed event payloads without quoting them', async () => {
    const payload = '{not json <script>alert(1)</script>';
    const { client } = setup(() => sseResponse([`data: ${payload}\n\n`]));
    const error = await collect(client.askStream({ question: 'q' })).catch(
      e => e,
    );
    expect(error).toBeInstanceOf(MalformedStreamError);
    // What a proxy sent is not shown to the user.
    expect(error.message).not.toContain('not json');
    expect(error.message).not.toContain('script');
    expect(describeError(error, t)).toBe(
      'The answer stream sent an event that could not be read',
    );
    // A retry would read the same rewritten stream.
    expect(isRetryable(error)).toBe(false);
  });

  it('skips a status event whose phase it has no text for, keeping the stream', async () => {
    const done = JSON.stringify({ type: 'done', response: groundedResponse });
    const { client } = setup(() =>
      sseResponse([
        'data: {"type":"status","phase":"generating"}\n\n',
        'data: {"type":"status","phase":"reranking"}\n\n',
        'data: {"type":"status"}\n\n',
        `data: ${done}\n\n`,
      ]),
    );
    await expect(collect(client.askStream({ question: 'q' }))).resolves.toEqual(
      [
        { type: 'status', phase: 'generating' },
        { type: 'done', response: groundedResponse },
      ],
    );
  });

  it('maps a failed stream request to a ResponseError before any event', async () => {
    const { client } = setup(() =>
      errorResponse(403, {
        name: 'NotAllowedError',
        message: 'not allowed to ask',
      }),
    );
    const error = await collect(client.askStream({ question: 'q' })).catch(
      e => e,
    );
    expect(ResponseError.is(error)).toBe(true);
    expect(describeError(error, t)).toBe('not allowed to ask');
  });

  it('accepts a plain JSON answer from the stream endpoint', async () => {
    const { client } = setup(() => jsonResponse(groundedResponse));
    await expect(collect(client.askStream({ question: 'q' }))).resolves.toEqual(
      [{ type: 'done', response: groundedResponse }],
    );
  });

  it('reads the history with a limit and unwraps items', async () => {
    const { client, fetch } = setup(() =>
      jsonResponse({ items: [{ id: 'x' }] }),
    );
    await expect(client.listAnswers({ limit: 5 })).resolves.toEqual([
      { id: 'x' },
    ]);
    expect(fetch.mock.calls[0][0]).toBe(`${BASE}/v1/answers?limit=5`);
  });

  it('pages back through the history with a before id', async () => {
    const { client, fetch } = setup(() => jsonResponse({ items: [] }));
    const id = '0B9C2D3E-4F50-4A61-8B72-93A4B5C6D7E8';
    await client.listAnswers({ limit: 20, before: id });
    expect(fetch.mock.calls[0][0]).toBe(
      `${BASE}/v1/answers?limit=20&before=${id}`,
    );
  });

  it('refuses a before that is not an answer id, without asking the backend', async () => {
    const { client, fetch } = setup(() => jsonResponse({ items: [] }));
    for (const before of ['', '..', 'x&limit=1000', 'a/1']) {
      await expect(client.listAnswers({ before })).rejects.toThrow(
        /Not an answer id/,
      );
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it("posts feedback to the answer's path", async () => {
    const { client, fetch } = setup(() => new Response(null, { status: 204 }));
    const id = '0b9c2d3e-4f50-4a61-8b72-93a4b5c6d7e8';
    await client.sendFeedback(id, { rating: 'down', comment: 'wrong' });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe(`${BASE}/v1/answers/${id}/feedback`);
    expect(JSON.parse(String(init?.body))).toEqual({
      rating: 'down',
      comment: 'wrong',
    });
  });

  it('refuses what is not an answer id instead of reading another endpoint', async () => {
    const { client, fetch } = setup(() => jsonResponse({ items: [] }));
    const refused = await client.getAnswer('..').catch(e => e);
    expect(refused).toBeInstanceOf(InvalidAnswerIdError);
    // The UI's text (translated) does not repeat the id.
    expect(describeError(refused, t)).toBe('Not an answer id');
    for (const id of ['', '.', '..', 'a/1']) {
      await expect(client.getAnswer(id)).rejects.toThrow(/Not an answer id/);
      await expect(client.sendFeedback(id, { rating: 'up' })).rejects.toThrow(
        /Not an answer id/,
      );
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  describe('cancelling the answer calls', () => {
    const id = '0b9c2d3e-4f50-4a61-8b72-93a4b5c6d7e8';
    const calls: Array<
      [string, (client: AskDocsClient, signal: AbortSignal) => Promise<unknown>]
    > = [
      ['getAnswer', (client, signal) => client.getAnswer(id, { signal })],
      [
        'listAnswers',
        (client, signal) => client.listAnswers({ limit: 5, signal }),
      ],
      [
        'sendFeedback',
        (client, signal) =>
          client.sendFeedback(id, { rating: 'up' }, { signal }),
      ],
    ];

    it.each(calls)('%s passes its signal to fetch', async (_name, call) => {
      const { client, fetch } = setup(() => jsonResponse({ items: [] }));
      const { signal } = new AbortController();
      await call(client, signal);
      expect(fetch.mock.calls[0][1]?.signal).toBe(signal);
    });

    it.each(calls)(
      '%s rejects with an AbortError when aborted',
      async (_name, call) => {
        const { client, fetch } = setup(fetchUntilAborted);
        const controller = new AbortController();
        const pending = call(client, controller.signal);
        // Abort while the request is in flight, not before it is made.
        await new Promise(resolve => setTimeout(resolve, 0));
        expect(fetch).toHaveBeenCalledTimes(1);
        controller.abort();
        // What the hooks tell a cancelled request from a failed one by.
        expect(isAbort(await pending.catch((e: unknown) => e))).toBe(true);
      },
    );
  });

  it('reports 403 on ingestion progress as forbidden', async () => {
    const { client } = setup(() =>
      errorResponse(403, { name: 'NotAllowedError', message: 'admins only' }),
    );
    const error = await client.getIngestionProgress().catch(e => e);
    expect(isForbidden(error)).toBe(true);
  });

  it('starts ingestion with a POST to /v1/ingestion/runs', async () => {
    const started = { started: true, running: true, runId: 4 };
    const { client, fetch } = setup(() => jsonResponse(started, 202));
    await expect(client.startIngestion()).resolves.toEqual(started);
    expect(fetch.mock.calls[0][0]).toBe(`${BASE}/v1/ingestion/runs`);
    expect(fetch.mock.calls[0][1]?.method).toBe('POST');
  });
});
