import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import http from 'http';
import { AddressInfo } from 'net';
import { DefaultAskDocsService } from './DefaultAskDocsService';

describe('DefaultAskDocsService', () => {
  let server: http.Server;
  let baseUrl: string;
  const seen: Array<{
    method?: string;
    url?: string;
    authorization?: string;
    body: string;
  }> = [];

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
        if (req.url?.startsWith('/v1/answers/missing')) {
          res.writeHead(404, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({
              error: { name: 'NotFoundError', message: 'no' },
            }),
          );
        } else if (
          req.url === '/v1/ask' &&
          JSON.parse(body).question === 'bad'
        ) {
          res.writeHead(400, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({
              error: { name: 'InputError', message: 'The question is empty' },
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
  afterAll(() => new Promise(r => server.close(r)));

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
    const response = await service().ask(
      { question: 'How do I roll back?' },
      { credentials },
    );
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

  it('surfaces 4xx as errors and a missing answer as undefined', async () => {
    const credentials = mockCredentials.user();
    await expect(
      service().ask({ question: 'bad' }, { credentials }),
    ).rejects.toMatchObject({
      statusCode: 400,
      cause: expect.objectContaining({
        message: expect.stringMatching(/The question is empty/),
      }),
    });
    expect(
      await service().getAnswer('missing', { credentials }),
    ).toBeUndefined();
    // Not the history list that `/v1/answers/` would be: no request at all.
    const sent = seen.length;
    for (const id of ['', '.', '..'])
      expect(await service().getAnswer(id, { credentials })).toBeUndefined();
    expect(seen.length).toBe(sent);
  });
});
