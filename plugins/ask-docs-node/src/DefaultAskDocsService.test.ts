import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import http from 'http';
import { AddressInfo } from 'net';
import { noAnswerMessage } from '@askdocs/plugin-ask-docs-common';
import { DefaultAskDocsService } from './DefaultAskDocsService';
// From the package entry point: callers need no direct dependency on the common package.
import type { AnswerRecord, AskRequest, AskResponse } from '.';

/** Answer ids the fake server knows (isAnswerId lets only UUIDs through to it). */
const GONE = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const UNMOUNTED = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const UNKNOWN_ROUTE = '1b2c3d4e-5f6a-4b7c-9d8e-9f0a1b2c3d4e';
const HANG = '2c3d4e5f-6a7b-4c8d-8e9f-0a1b2c3d4e5f';
/** How long the fake server takes to answer a request it holds. */
const HOLD_MS = 3000;

describe('DefaultAskDocsService', () => {
  let server: http.Server;
  let baseUrl: string;
  const seen: Array<{
    method?: string;
    url?: string;
    authorization?: string;
    body: string;
  }> = [];
  /** URLs of the requests the server holds, and of those whose connection closed first. */
  const held: string[] = [];
  const closedEarly: string[] = [];

  const notFound = (res: http.ServerResponse, message: string) =>
    res.writeHead(404, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        error: { name: 'NotFoundError', message },
        response: { statusCode: 404 },
      }),
    );

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', c => (body += c));
      req.on('end', () => {
        seen.push({
          method: req.method,
          url: req.url,
          authorization: req.headers.authorization,
          body,
        });
        const question = req.method === 'POST' && JSON.parse(body).question;
        if (req.url === `/v1/answers/${GONE}`) {
          // The answer handler's 404 (router.ts GET /v1/answers/:id).
          notFound(res, noAnswerMessage(GONE));
        } else if (req.url === `/v1/answers/${UNMOUNTED}`) {
          // Backstage's root router when no plugin is mounted at the path: an empty 404.
          res.writeHead(404).end();
        } else if (req.url === `/v1/answers/${UNKNOWN_ROUTE}`) {
          notFound(res, 'No such ask-docs endpoint');
        } else if (req.url === `/v1/answers/${HANG}` || question === 'hang') {
          // A slow retrieval or model call: answers late unless the client goes away.
          held.push(req.url!);
          const timer = setTimeout(
            () => res.writeHead(200).end(JSON.stringify({ id: 'late' })),
            HOLD_MS,
          );
          res.on('close', () => {
            clearTimeout(timer);
            if (!res.writableEnded) closedEarly.push(req.url!);
          });
        } else if (req.url === '/v1/ask' && question === 'bad') {
          res.writeHead(400, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({
              error: { name: 'InputError', message: 'The question is empty' },
              response: { statusCode: 400 },
            }),
          );
        } else {
          res
            .writeHead(200, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ id: 'a1', status: 'answered' }));
        }
      });
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections(); // keep-alive sockets would hold close() for seconds
    return new Promise(r => server.close(r));
  });

  const service = () =>
    new DefaultAskDocsService(
      {
        getBaseUrl: async () => baseUrl,
        getExternalBaseUrl: async () => baseUrl,
      },
      mockServices.auth(),
    );

  it('asks on behalf of the user, not as the calling plugin', async () => {
    const credentials = mockCredentials.user('user:default/alice');
    const asked: AskRequest = { question: 'How do I roll back?' };
    const response: AskResponse = await service().ask(asked, {
      credentials,
    });
    expect(response).toEqual({ id: 'a1', status: 'answered' });
    const request = seen[seen.length - 1];
    expect(request.method).toBe('POST');
    expect(JSON.parse(request.body)).toEqual({
      question: 'How do I roll back?',
    });
    // the mock auth service encodes the on-behalf-of subject and target plugin in the token
    expect(request.authorization).toBe(
      mockCredentials.service.header({
        onBehalfOf: credentials,
        targetPluginId: 'ask-docs',
      }),
    );
    expect(request.authorization).toContain('alice');
  });

  it("refuses to ask with a service's credentials, before any request", async () => {
    const sent = seen.length;
    for (const credentials of [
      mockCredentials.service('plugin:my-plugin'),
      mockCredentials.service('external:ci-bot'),
      mockCredentials.none(),
    ]) {
      await expect(
        service().ask({ question: 'How do I roll back?' }, { credentials }),
      ).rejects.toMatchObject({
        name: 'NotAllowedError',
        message: expect.stringMatching(/only on behalf of a user/),
      });
    }
    expect(seen.length).toBe(sent);
    // Reading a stored answer stays open to a service (an audit reader's, redacted).
    expect(
      await service().getAnswer(GONE, {
        credentials: mockCredentials.service('plugin:audit-exporter'),
      }),
    ).toBeUndefined();
    expect(seen.length).toBe(sent + 1);
  });

  it('surfaces 4xx as errors and a missing answer as undefined', async () => {
    const credentials = mockCredentials.user();
    await expect(
      service().ask({ question: 'bad' }, { credentials }),
    ).rejects.toMatchObject({
      statusCode: 400,
      // The backend's own error, not one ResponseError made up from an unreadable body.
      cause: expect.objectContaining({
        name: 'InputError',
        message: 'The question is empty',
      }),
    });
    const gone: AnswerRecord | undefined = await service().getAnswer(GONE, {
      credentials,
    });
    expect(gone).toBeUndefined();
    expect(seen[seen.length - 1].url).toBe(`/v1/answers/${GONE}`);
    // Not the history list that `/v1/answers/` would be: no request at all.
    const sent = seen.length;
    for (const id of ['', '.', '..'])
      expect(await service().getAnswer(id, { credentials })).toBeUndefined();
    expect(seen.length).toBe(sent);
  });

  it('throws on a 404 that is not the backend saying the answer does not exist', async () => {
    const credentials = mockCredentials.user();
    // ask-docs not mounted where discovery points: a misconfiguration, not a missing answer.
    await expect(
      service().getAnswer(UNMOUNTED, { credentials }),
    ).rejects.toMatchObject({ name: 'ResponseError', statusCode: 404 });
    await expect(
      service().getAnswer(UNKNOWN_ROUTE, { credentials }),
    ).rejects.toMatchObject({
      statusCode: 404,
      cause: expect.objectContaining({ message: 'No such ask-docs endpoint' }),
    });
  });

  it.each([
    [
      'ask',
      (signal: AbortSignal) =>
        service().ask(
          { question: 'hang' },
          { credentials: mockCredentials.user(), signal },
        ),
      '/v1/ask',
    ],
    [
      'getAnswer',
      (signal: AbortSignal) =>
        service().getAnswer(HANG, {
          credentials: mockCredentials.user(),
          signal,
        }),
      `/v1/answers/${HANG}`,
    ],
  ])(
    '%s: aborting the signal cancels the request',
    async (_name, call, url) => {
      const controller = new AbortController();
      const started = Date.now();
      const result = call(controller.signal);
      // Abort once the server holds the request, as a caller whose own user left would.
      await waitFor(() => held.includes(url));
      controller.abort();
      await expect(result).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(HOLD_MS);
      // The backend sees the connection close, which aborts its retrieval and model call.
      await waitFor(() => closedEarly.includes(url));
    },
  );
});

async function waitFor(condition: () => boolean, timeoutMs = 2000) {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise(r => setTimeout(r, 10));
  }
}
