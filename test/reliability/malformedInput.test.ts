/*
 * Oversized and malformed request bodies against the real backend: each is a client error
 * (400 or 413) with an error body, never a 500, and none of them reaches retrieval or the model.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { engineeringHandbookSite, useFakeModelBackend } from '../src';

const alice = 'user:default/alice';

describe('oversized and malformed input', () => {
  const env = useFakeModelBackend(() => ({
    sites: [engineeringHandbookSite()],
    claims: {},
  }));
  const post = (path: string) =>
    request(env.backend.server)
      .post(`/api/ask-docs/v1${path}`)
      .set('Authorization', mockCredentials.user.header(alice));

  beforeEach(() => env.fake.reset());

  async function answersBefore() {
    return Number(
      (await env.backend.db.knex('ask_docs_answers').count('* as n').first())!
        .n,
    );
  }

  const expectClientError = (res: request.Response, allowed: number[]) => {
    expect({
      status: res.status,
      body: res.body,
      allowed: allowed.includes(res.status),
    }).toEqual({
      status: res.status,
      body: res.body,
      allowed: true,
    });
    expect(res.body?.error?.message).toEqual(expect.any(String));
  };

  it.each(['/ask', '/ask/stream'])(
    'refuses a 100 kB question on %s with 413 or 400',
    async path => {
      const before = await answersBefore();
      const res = await post(path).send({
        question: `How do reviews work? ${'x'.repeat(100_000)}`,
      });
      expectClientError(res, [400, 413]);
      expect(env.fake.calls).toBe(0);
      expect(await answersBefore()).toBe(before);
    },
  );

  it(`refuses a question just over the question limit but within the body limit with \
400`, async () => {
    const res = await post('/ask').send({ question: 'review '.repeat(2000) });
    expectClientError(res, [400]);
    expect(env.fake.calls).toBe(0);
  });

  it.each([
    ['truncated JSON', '{"question": "How do reviews'],
    ['a trailing comma', '{"question": "How do reviews work?",}'],
    ['a bare string', '"How do reviews work?"'],
    ['a JSON array', '["How do reviews work?"]'],
    ['null', 'null'],
    ['an empty body', ''],
  ])('refuses %s with 400', async (_name, raw) => {
    const before = await answersBefore();
    const res = await post('/ask')
      .set('Content-Type', 'application/json')
      .send(raw);
    expectClientError(res, [400]);
    expect(env.fake.calls).toBe(0);
    expect(await answersBefore()).toBe(before);
  });

  it.each([
    ['text/plain', 'question=How do reviews work?'],
    [
      'application/x-www-form-urlencoded',
      'question=How%20do%20reviews%20work%3F',
    ],
    ['application/xml', '<question>How do reviews work?</question>'],
  ])('refuses a %s body with the declared 415', async (contentType, raw) => {
    const res = await post('/ask').set('Content-Type', contentType).send(raw);
    expectClientError(res, [415]);
    expect(env.fake.calls).toBe(0);
  });

  it('still answers a well-formed question afterwards (the refusals are not vacuous)', async () => {
    const res = await post('/ask').send({
      question: 'How many approving reviews does a change need?',
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('answered');
    expect(env.fake.calls).toBe(1);
  });
});
