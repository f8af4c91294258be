import type {
  internal,
  PathTemplate,
  Request,
  Response,
} from '@backstage/backend-openapi-utils';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { NotAllowedError } from '@backstage/errors';
// The wire types of the REST contract, shared with the backend.
import type * as Wire from '@askdocs/plugin-ask-docs-common';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import express from 'express';
import fs from 'fs';
import type { FromSchema } from 'json-schema-to-ts';
import path from 'path';
import request from 'supertest';
import YAML from 'yaml';
import { spec } from '../schema/openapi';
import { AskService } from './AskService';
import { IngestionController } from './IngestionController';
import { createRouter } from './router';
import {
  bufferText,
  parseEvents,
  withErrorMiddleware,
} from '../testUtils/http';

/**
 * The router and src/schema/openapi.yaml must not drift apart: the generated spec is the yaml,
 * every route is an operation and every operation a route, requests the spec refuses never
 * reach a handler, and what the handlers send matches the spec's response schemas. The wire
 * types of ask-docs-common (used by the frontend client) are checked against the spec's types
 * at compile time, below.
 */

const pkgDir = path.resolve(__dirname, '../..');
const yamlPath = path.join(pkgDir, 'src/schema/openapi.yaml');

// ---- compile time: the common wire types are the spec's types, both ways ------------------
type Spec = typeof spec;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Body<T> = Exclude<T, { error: unknown }>; // without the error responses
type Component<Name extends keyof Spec['components']['schemas']> = FromSchema<
  internal.SchemaRef<Spec, Spec['components']['schemas'][Name]>
>;
type SpecPath = PathTemplate<Extract<keyof Spec['paths'], string>>;
type Method<P extends SpecPath> = internal.DocPathTemplateMethod<Spec, P>;
/** `T` is exactly what `method` `path` replies with (error responses aside). */
type IsReply<T, P extends SpecPath, M extends Method<P>> = Same<
  T,
  Body<Response<Spec, P, M>>
>;
/** `T` is exactly the request body `method` `path` takes. */
type IsRequest<T, P extends SpecPath, M extends Method<P>> = Same<
  T,
  Request<Spec, P, M>
>;
// Each line fails `tsc` when a common type and the spec disagree (a field, optionality, enum).
export const wireTypesMatchTheSpec: Record<string, true> = {
  health: true as IsReply<Wire.HealthResponse, '/health', 'get'>,
  askRequest: true as IsRequest<Wire.AskRequest, '/v1/ask', 'post'>,
  askResponse: true as IsReply<Wire.AskResponse, '/v1/ask', 'post'>,
  streamRequest: true as IsRequest<Wire.AskRequest, '/v1/ask/stream', 'post'>,
  streamEvent: true as Same<Wire.AskStreamEvent, Component<'AskStreamEvent'>>,
  answers: true as IsReply<
    { items: Wire.AnswerRecord[] },
    '/v1/answers',
    'get'
  >,
  answer: true as IsReply<Wire.AnswerRecord, '/v1/answers/:id', 'get'>,
  feedback: true as IsRequest<
    Wire.AnswerFeedback,
    '/v1/answers/:id/feedback',
    'post'
  >,
  progress: true as IsReply<Wire.IngestionProgress, '/v1/ingestion', 'get'>,
  runStarted: true as IsReply<
    Wire.IngestionRunStarted,
    '/v1/ingestion/runs',
    'post'
  >,
};

// ---- run time -----------------------------------------------------------------------------
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Served by backend-openapi-utils' router itself (the spec as JSON), not an operation. */
const FRAMEWORK_ROUTES = ['get /openapi.json'];

function specOperations(): string[] {
  return Object.entries(spec.paths).flatMap(([p, item]) =>
    METHODS.filter(m => m in item).map(
      m => `${m} ${p.replace(/\{(\w+)\}/g, ':$1')}`,
    ),
  );
}

/** Method and path of every route registered on an express router, nested routers included. */
function expressRoutes(router: any): string[] {
  return (router.stack ?? []).flatMap((layer: any) => {
    if (layer.route) {
      return Object.keys(layer.route.methods)
        .filter(m => layer.route.methods[m])
        .map(m => `${m} ${layer.route.path}`);
    }
    return layer.handle?.stack ? expressRoutes(layer.handle) : [];
  });
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(JSON.parse(JSON.stringify(spec)), 'openapi');

/** JSON pointer of the body schema that `path` `method` `status` promises. */
function responseSchemaPointer(
  p: string,
  method: string,
  status: number,
  mediaType = 'application/json',
): string {
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  let response: any = (spec.paths as any)[p]?.[method]?.responses?.[status];
  let pointer = `#/paths/${esc(p)}/${method}/responses/${status}`;
  if (!response)
    throw new Error(`The spec has no ${status} for ${method} ${p}`);
  if (response.$ref) {
    pointer = response.$ref;
    response = (spec.components.responses as any)[pointer.split('/').pop()!];
  }
  if (!response.content?.[mediaType]) {
    throw new Error(
      `The spec has no ${mediaType} body for ${status} of ${method} ${p}`,
    );
  }
  return `openapi${pointer}/content/${esc(mediaType)}/schema`;
}

function schemaErrors(pointer: string, value: unknown): string[] {
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  return validate(value)
    ? []
    : (validate.errors ?? []).map(e => `${e.instancePath || '/'} ${e.message}`);
}

/** The spec path (`/v1/answers/{id}`) of which a request's path is an instance. */
function specPathOf(url: string): string {
  const { pathname } = new URL(url);
  const paths = Object.keys(spec.paths);
  const found =
    paths.find(t => t === pathname) ??
    paths.find(t =>
      new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`).test(pathname),
    );
  if (!found) throw new Error(`The spec has no path for ${pathname}`);
  return found;
}

/** The response has `expectedStatus` and a body of the schema its operation declares for it. */
async function conforms(res: request.Response, expectedStatus: number) {
  expect(res.status).toBe(expectedStatus);
  if (res.status === 204) return res;
  const { method, url } = res.request;
  const pointer = responseSchemaPointer(
    specPathOf(url),
    method.toLowerCase(),
    res.status,
  );
  expect(schemaErrors(pointer, res.body)).toEqual([]);
  return res;
}

const ANSWER_ID = '7d0f6a39-3c4e-4a7f-9d65-1d5f0f0b2c11';
const source = {
  title: 'Release process',
  documentId: 'techdocs:default/component/payments',
  chunkId: 'c1',
  entityRef: 'component:default/payments',
  sectionPath: 'Release process › Rollback',
  anchor: 'rollback',
  url: '/docs/default/component/payments/release/#rollback',
  revision: 'r1',
  snippet: 'Roll back with deployctl.',
};
const response: Wire.AskResponse = {
  id: ANSWER_ID,
  status: 'answered',
  grounded: true,
  answer: 'Use deployctl [Release process].',
  sources: [source],
  evidence: [{ ...source, score: 0.8 }],
  notice: 'note',
  corrections: [{ from: 'rollbak', to: 'rollback' }],
  llmModel: 'fake-model',
  embeddingModel: 'hashing',
  createdAt: '2026-12-05T10:00:00.000Z',
};
const record: Wire.AnswerRecord = {
  ...response,
  question: 'How do I roll back?',
  userRef: 'user:default/alice',
  scope: { entityRefs: ['component:default/payments'] },
  outdatedSources: [
    {
      documentId: source.documentId,
      title: 'Release',
      answeredRevision: 'r1',
      currentRevision: null,
    },
  ],
  feedback: { rating: 'up', comment: 'thanks' },
  threadId: '9b2f3c4d-1111-4222-8333-444455556666',
  redacted: { sources: 1, evidence: 0, corrections: 0, answerText: false },
};
const progress: Wire.IngestionProgress = {
  runId: 3,
  status: 'succeeded',
  trigger: 'manual',
  startedAt: '2026-12-05T10:00:00.000Z',
  finishedAt: '2026-12-05T10:01:00.000Z',
  entitiesDone: 2,
  pagesDone: 5,
  pagesSkipped: 1,
  chunksWritten: 10,
  chunksEmbedded: 10,
  chunksDeleted: 0,
  chunksReanalysed: 0,
  errors: [
    {
      entityRef: 'component:default/x',
      page: 'index.html',
      message: 'bad page',
    },
  ],
};
const health: Wire.HealthResponse = {
  status: 'ok',
  embedder: {
    modelId: 'hashing',
    kind: 'hashing-fallback',
    dimension: 384,
    note: 'offline',
  },
  llm: { configured: true, model: 'fake-model' },
  languages: ['en', 'cs'],
  visibility: {
    lastSyncAt: '2026-12-07T10:00:00.000Z',
    maxStalenessSeconds: 90,
    stale: false,
  },
  reranker: {
    modelId: 'cross-encoder',
    loaded: false,
    candidates: 20,
    note: 'not loaded',
  },
};

describe('ask-docs router and OpenAPI spec', () => {
  let app: express.Express;
  let router: express.Router;
  let denied = false;
  let failing = false;
  const reached: string[] = [];
  const service = {
    async prepare(req: Wire.AskRequest) {
      reached.push(req.question);
      if (denied) throw new NotAllowedError('You may not ask the docs');
      return { request: req };
    },
    async answer(_prepared: unknown, call: any) {
      call.onPhase?.('generating');
      call.onDelta?.('Use deployctl');
      if (failing) throw new Error('relation "x" does not exist');
      return response;
    },
    async ask(req: Wire.AskRequest, call: any) {
      return service.answer(await service.prepare(req), call);
    },
    async listAnswers(o: { limit: number; before?: string }) {
      reached.push(`limit ${o.limit}${o.before ? ` before ${o.before}` : ''}`);
      return [record];
    },
    async getAnswer(id: string) {
      if (failing) throw new Error('relation "x" does not exist');
      return id === ANSWER_ID ? record : undefined;
    },
    async setFeedback(_id: string, feedback: Wire.AnswerFeedback) {
      reached.push(`feedback ${feedback.rating}`);
    },
  };
  const ingestion = {
    async authorize() {
      if (denied)
        throw new NotAllowedError('Ingestion needs ask-docs.ingestion.run');
    },
    async progress() {
      return progress;
    },
    async start(): Promise<Wire.IngestionRunStarted> {
      return { started: true, running: true, runId: 4 };
    },
  };
  const alice = mockCredentials.user.header('user:default/alice');
  const get = (p: string) => request(app).get(p).set('Authorization', alice);
  const post = (p: string, body?: object) =>
    request(app).post(p).set('Authorization', alice).send(body);

  beforeAll(async () => {
    const logger = mockServices.logger.mock();
    router = await createRouter({
      httpAuth: mockServices.httpAuth(),
      auditor: mockServices.auditor.mock(),
      logger,
      askService: service as unknown as AskService,
      ingestion: ingestion as unknown as IngestionController,
      health: async () => health,
      maxQuestionChars: 200,
    });
    app = withErrorMiddleware(router, logger);
  });

  beforeEach(() => {
    denied = false;
    failing = false;
    reached.length = 0;
  });

  it('serves the spec generated from src/schema/openapi.yaml, unchanged', () => {
    const yaml = YAML.parse(fs.readFileSync(yamlPath, 'utf8'), { merge: true });
    // Fails after a yaml edit without `npm run generate:openapi` (or a hand edit of router.ts).
    expect(JSON.parse(JSON.stringify(spec))).toEqual(yaml);
  });

  it('registers exactly the operations of the spec', () => {
    const routes = expressRoutes(router).filter(
      r => !FRAMEWORK_ROUTES.includes(r),
    );
    expect(routes.length).toBe(new Set(routes).size);
    expect([...routes].sort()).toEqual(specOperations().sort());
  });

  it('calls only paths of the spec from the frontend client', () => {
    const client = fs.readFileSync(
      path.join(pkgDir, '../ask-docs/src/api/AskDocsClient.ts'),
      'utf8',
    );
    const called = [
      ...client.matchAll(
        /this\.(?:json|request)(?:<[^>]*>)?\(\s*[`']([^`'?]+)/g,
      ),
    ].map(m => m[1].replace(/\$\{[^}]*\}/g, '{id}'));
    expect(called.length).toBeGreaterThanOrEqual(7);
    for (const p of called) expect(Object.keys(spec.paths)).toContain(p);
  });

  it('answers every JSON operation with a body of its declared schema', async () => {
    await conforms(await get('/health'), 200);
    await conforms(await post('/v1/ask', { question: 'Roll back?' }), 200);
    await conforms(await get('/v1/answers?limit=5'), 200);
    expect(reached).toContain('limit 5');
    await conforms(await get('/v1/answers'), 200);
    expect(reached).toContain('limit 20');
    await conforms(await get(`/v1/answers/${ANSWER_ID}`), 200);
    const feedback = await post(`/v1/answers/${ANSWER_ID}/feedback`, {
      rating: 'down',
    });
    await conforms(feedback, 204);
    await conforms(await get('/v1/ingestion'), 200);
    await conforms(await post('/v1/ingestion/runs'), 202);
  });

  it('streams events of the declared AskStreamEvent schema', async () => {
    const res = await post('/v1/ask/stream', { question: 'Roll back?' })
      .buffer(true)
      .parse(bufferText);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    expect(
      Object.keys(
        (spec.paths['/v1/ask/stream'].post.responses as any)[200].content,
      ),
    ).toEqual(['text/event-stream']);
    const events = parseEvents(res.body);
    expect(events.map(e => e.type)).toEqual([
      'status',
      'status',
      'delta',
      'done',
    ]);
    for (const event of events) {
      expect(
        schemaErrors('openapi#/components/schemas/AskStreamEvent', event),
      ).toEqual([]);
    }
  });

  it('answers errors with the declared error bodies', async () => {
    await conforms(await post('/v1/ask', { question: '  ' }), 400);
    await conforms(await get('/v1/answers/unknown'), 404);
    denied = true;
    await conforms(await post('/v1/ask', { question: 'Roll back?' }), 403);
    await conforms(await get('/v1/ingestion'), 403);
    await conforms(await post('/v1/ingestion/runs'), 403);
    denied = false;
    failing = true;
    await conforms(await get(`/v1/answers/${ANSWER_ID}`), 500);
  });

  it.each([
    ['a number as the question', '/v1/ask', { question: 42 }],
    ['no question', '/v1/ask', { scope: {} }],
    ['an unknown field', '/v1/ask', { question: 'ok?', unexpected: true }],
    [
      'a scope that is not a list',
      '/v1/ask',
      { question: 'ok?', scope: { entityRefs: 'x' } },
    ],
    [
      'an empty entity ref',
      '/v1/ask/stream',
      { question: 'ok?', scope: { entityRefs: [''] } },
    ],
    [
      '51 entity refs',
      '/v1/ask',
      { question: 'ok?', scope: { entityRefs: Array(51).fill('a') } },
    ],
    [
      'a rating outside the enum',
      `/v1/answers/${ANSWER_ID}/feedback`,
      { rating: 'meh' },
    ],
    [
      'an overlong comment',
      `/v1/answers/${ANSWER_ID}/feedback`,
      {
        rating: 'up',
        comment: 'x'.repeat(2001),
      },
    ],
    // Postgres stores no NUL: refused before retrieval and the model, not a 500 after them.
    ['a NUL in the question', '/v1/ask', { question: 'Roll\u0000 back?' }],
    [
      'a NUL in the thread id',
      '/v1/ask/stream',
      { question: 'ok?', threadId: 'a\u0000' },
    ],
    [
      'a NUL in an entity ref',
      '/v1/ask',
      { question: 'ok?', scope: { entityRefs: ['component:x\u0000'] } },
    ],
    [
      'a NUL in a feedback comment',
      `/v1/answers/${ANSWER_ID}/feedback`,
      { rating: 'up', comment: 'thanks\u0000' },
    ],
  ])('refuses %s with a 400 before any handler', async (_name, p, body) => {
    const res = await post(p, body);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('InputError');
    expect(reached).toEqual([]);
  });

  it.each(['0', '101', '2.5', 'many'])(
    'refuses limit=%s before any answer is read',
    async limit => {
      const res = await get(`/v1/answers?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(reached).toEqual([]);
    },
  );

  it.each(['/v1/ask', '/v1/ask/stream', `/v1/answers/${ANSWER_ID}/feedback`])(
    'refuses a body that is not JSON on %s with the declared 415',
    async p => {
      const res = await request(app)
        .post(p)
        .set('Authorization', alice)
        .set('Content-Type', 'text/plain')
        .send('question=Roll back?');
      await conforms(res, 415);
      expect(res.body.error).toEqual({
        name: 'UnsupportedMediaTypeError',
        message: 'The request body must be application/json',
      });
      expect(reached).toEqual([]);
    },
  );

  it.each(specOperations())(
    'refuses an unknown query parameter on %s with a declared 400',
    async operation => {
      const [method, p] = operation.split(' ');
      const url = `${p.replace(':id', ANSWER_ID)}?unexpected=1`;
      const res = await (method === 'get' ? get(url) : post(url, {}));
      await conforms(res, 400);
      expect(reached).toEqual([]);
    },
  );

  it('refuses malformed JSON with a 400 that does not echo the body', async () => {
    const res = await request(app)
      .post('/v1/ask')
      .set('Authorization', alice)
      .set('Content-Type', 'application/json')
      .send('{"question": "my secret');
    await conforms(res, 400);
    expect(res.body.error).toEqual({
      name: 'InputError',
      message: 'The request body is not valid JSON',
    });
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it.each(['/v1/ask', '/v1/ask/stream', `/v1/answers/${ANSWER_ID}/feedback`])(
    'refuses a body over 64 kB on %s with a declared 413 naming the limits',
    async p => {
      const res = await post(p, { question: 'x'.repeat(70_000) });
      await conforms(res, 413);
      expect(res.body.error).toEqual({
        name: 'PayloadTooLargeError',
        message:
          'The request body is too large (at most 64 kB; a question is limited to 200 characters)',
      });
      expect(reached).toEqual([]);
    },
  );

  describe('HEAD, which express answers with the GET route but the validator skips', () => {
    const head = (p: string) =>
      request(app).head(p).set('Authorization', alice);

    it.each(['abc', '0', '101'])(
      'refuses limit=%s before any answer is read',
      async limit => {
        expect((await head(`/v1/answers?limit=${limit}`)).status).toBe(400);
        expect(reached).toEqual([]);
      },
    );

    it.each(['abc', '', `${ANSWER_ID}x`])(
      'refuses before=%s before any answer is read',
      async before => {
        expect((await head(`/v1/answers?before=${before}`)).status).toBe(400);
        expect(reached).toEqual([]);
      },
    );

    it('refuses the query parameters GET does not declare, and serves the rest', async () => {
      expect((await head('/v1/answers?unexpected=1')).status).toBe(400);
      expect((await head(`/v1/answers/${ANSWER_ID}?x=1`)).status).toBe(400);
      expect(reached).toEqual([]);
      expect((await head('/v1/answers?limit=5')).status).toBe(200);
      expect(reached).toEqual(['limit 5']);
      expect((await head(`/v1/answers?before=${ANSWER_ID}`)).status).toBe(200);
      expect(reached).toEqual(['limit 5', `limit 20 before ${ANSWER_ID}`]);
      expect((await head('/health')).status).toBe(200);
    });
  });

  it('validates against the schemas for real (a wrong body is caught)', () => {
    const pointer = responseSchemaPointer('/v1/ingestion/runs', 'post', 202);
    expect(
      schemaErrors(pointer, { started: true, running: true, runId: 4 }),
    ).toEqual([]);
    expect(schemaErrors(pointer, { runId: 4 })).not.toEqual([]);
    expect(
      schemaErrors(pointer, { started: true, running: true, extra: 1 }),
    ).not.toEqual([]);
    const answer = responseSchemaPointer('/v1/answers/{id}', 'get', 200);
    expect(
      schemaErrors(answer, { ...record, question: undefined }),
    ).not.toEqual([]);
  });
});
