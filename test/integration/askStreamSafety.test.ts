/*
 * The ask endpoints under refusal, bounds, failure and disconnects, over HTTP against the real
 * backend and the fake OpenAI server: refusals are JSON before the first stream byte, questions
 * with too many terms get 400, a client that leaves aborts the model request, and a store failure
 * reaches the client as a generic error with a request id.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import http from 'http';
import { AddressInfo } from 'net';
import request from 'supertest';
import {
  bufferText,
  citeAsLabels,
  citeFirstBlock,
  engineeringHandbookSite,
  parseEvents,
  useFakeModelBackend,
} from '../src';

const alice = 'user:default/alice';
const mallory = 'user:default/mallory'; // may not ask
const QUESTION = 'How many approving reviews does a change need before merge?';
const LEAK = /ask_docs|relation|insert into|does not exist|select /i;

/** `n` distinct letter-only words that are neither stopwords nor each other's forms. */
const distinctWords = (n: number) => {
  const a = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from(
    { length: n },
    (_, i) => `zq${a[Math.floor(i / 26) % 26]}${a[i % 26]}x`,
  );
};

describe('ask endpoints under refusal, bounds, failures and disconnects', () => {
  const post = (path: string, user: string, body: unknown) =>
    request(env.backend.server)
      .post(`/api/ask-docs/v1${path}`)
      .set('Authorization', mockCredentials.user.header(user))
      .send(body as object)
      .buffer(true)
      .parse(bufferText);
  const answerCount = async () =>
    Number(
      (await env.backend.db.knex('ask_docs_answers').count('* as n').first())!
        .n,
    );

  const env = useFakeModelBackend(() => ({
    sites: [engineeringHandbookSite()],
    claims: {},
    authorize: (permission, credentials) => {
      const ref = (credentials.principal as { userEntityRef: string })
        .userEntityRef;
      return permission === 'ask-docs.ask' && ref === mallory
        ? AuthorizeResult.DENY
        : AuthorizeResult.ALLOW;
    },
  }));

  beforeEach(() => {
    env.fake.setBehaviour(citeFirstBlock);
    env.fake.reset();
  });

  it('refuses the stream with the JSON endpoint’s 403 before the first byte', async () => {
    const streamed = await post('/ask/stream', mallory, { question: QUESTION });
    const plain = await post('/ask', mallory, { question: QUESTION });
    expect(streamed.status).toBe(403);
    expect(streamed.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(streamed.body).error).toEqual(
      JSON.parse(plain.body).error,
    );
    expect(env.fake.calls).toBe(0);
  });

  it('bounds the distinct terms of a question with a 400 that states the limit', async () => {
    const before = await answerCount();
    const tooMany = await post('/ask', alice, {
      question: distinctWords(65).join(' '),
    });
    expect(tooMany.status).toBe(400);
    expect(JSON.parse(tooMany.body).error.message).toMatch(
      /too many distinct search terms \(65, at most 64\)/,
    );
    // A huge many-word question within the character limit, on the stream too: JSON 400 at once.
    const huge = distinctWords(330).join(' ');
    expect(huge.length).toBeLessThanOrEqual(2000);
    const streamed = await post('/ask/stream', alice, { question: huge });
    expect(streamed.status).toBe(400);
    expect(streamed.headers['content-type']).toMatch(/application\/json/);
    expect(await answerCount()).toBe(before);

    // The permission comes first: who may not ask gets the 403, not a verdict on the input.
    for (const path of ['/ask', '/ask/stream']) {
      const denied = await post(path, mallory, { question: huge });
      expect(denied.status).toBe(403);
    }

    const atLimit = await post('/ask', alice, {
      question: distinctWords(64).join(' '),
    });
    expect(atLimit.status).toBe(200);
    expect(JSON.parse(atLimit.body).status).toEqual(expect.any(String));
    expect(env.fake.calls).toBe(0);
  });

  it('aborts the model request when the client leaves mid-stream', async () => {
    env.fake.setBehaviour(req => {
      const [label] = citeAsLabels(req);
      return {
        text: `${'Reviews matter. '.repeat(100)}${label}`,
        chunkDelayMs: 50,
      };
    });
    const before = await answerCount();
    const server = env.backend.server as unknown as http.Server;
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/ask-docs/v1/ask/stream',
          method: 'POST',
          headers: {
            Authorization: mockCredentials.user.header(alice),
            'Content-Type': 'application/json',
          },
        },
        res => {
          expect(res.statusCode).toBe(200);
          res.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('"delta"')) {
              req.destroy(); // the model has started answering: leave
              resolve();
            }
          });
          res.on('end', () =>
            reject(new Error('the stream ended before any delta')),
          );
        },
      );
      req.on('error', () => undefined);
      req.end(JSON.stringify({ question: QUESTION }));
    });
    // The full reply would take 10 s; the backend must give up on it at once.
    for (let i = 0; i < 60 && !env.fake.lastRequest?.aborted; i++)
      await new Promise(r => setTimeout(r, 50));
    expect(env.fake.calls).toBe(1);
    expect(env.fake.lastRequest?.aborted).toBe(true);
    // Audited all the same: the model had the documents and streamed part of its text. The
    // record is no answer: the asker's history does not list it.
    for (let i = 0; i < 60 && (await answerCount()) === before; i++)
      await new Promise(r => setTimeout(r, 50));
    expect(await answerCount()).toBe(before + 1);
    const row = await env.backend.db
      .knex('ask_docs_answers')
      .orderBy('created_at', 'desc')
      .first();
    expect(row).toMatchObject({
      user_ref: alice,
      status: 'abandoned',
      grounded: false,
      raw_output: expect.stringMatching(/^Reviews/),
    });
    expect(row.retrieved.some((c: { sent: boolean }) => c.sent)).toBe(true);
    expect(row.policy.answer).toMatchObject({
      promptVersion: expect.stringMatching(/^\d+\.[0-9a-f]{12}$/),
      model: { temperature: 0, timeoutMs: expect.any(Number) },
    });
    const history = await request(env.backend.server)
      .get('/api/ask-docs/v1/answers')
      .set('Authorization', mockCredentials.user.header(alice));
    expect(history.body.items.map((a: { id: string }) => a.id)).not.toContain(
      row.id,
    );
    const replay = await request(env.backend.server)
      .get(`/api/ask-docs/v1/answers/${row.id}`)
      .set('Authorization', mockCredentials.user.header(alice));
    expect(replay.status).toBe(404);
  });

  it('reports a store failure as a generic error with a request id on both endpoints', async () => {
    await env.backend.db.knex.schema.renameTable(
      'ask_docs_answers',
      'ask_docs_answers_away',
    );
    try {
      const plain = await post('/ask', alice, { question: QUESTION });
      expect(plain.status).toBe(500);
      expect(JSON.parse(plain.body).error).toEqual({
        name: 'InternalError',
        message: 'Internal error',
        requestId: expect.any(String),
      });
      expect(plain.body).not.toMatch(LEAK);

      const streamed = await post('/ask/stream', alice, { question: QUESTION });
      expect(streamed.status).toBe(200);
      const error = parseEvents(streamed.body).find(e => e.type === 'error');
      expect(error).toEqual({
        type: 'error',
        message: 'Internal error',
        requestId: expect.any(String),
      });
      expect(streamed.body).not.toMatch(LEAK);

      const history = await request(env.backend.server)
        .get('/api/ask-docs/v1/answers')
        .set('Authorization', mockCredentials.user.header(alice));
      expect(history.status).toBe(500);
      expect(JSON.stringify(history.body)).not.toMatch(LEAK);
    } finally {
      await env.backend.db.knex.schema.renameTable(
        'ask_docs_answers_away',
        'ask_docs_answers',
      );
    }
  });
});
