import {
  AuditorService,
  AuditorServiceCreateEventOptions,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { NotAllowedError, ServiceUnavailableError } from '@backstage/errors';
import OpenAI from 'openai';
import express from 'express';
import http from 'http';
import { AddressInfo } from 'net';
import request from 'supertest';
import {
  AnswerCallOptions,
  AskService,
  RESTARTING_MESSAGE,
} from './AskService';
import { IngestionController } from './IngestionController';
import { createRouter } from './router';
import { abortOnClientClose } from './errors';
import {
  bufferText,
  parseEvents,
  withErrorMiddleware,
} from '../testUtils/http';

/**
 * The HTTP surface's failure behaviour, with the service faked: refusals come before the first
 * stream byte, internal errors never reach clients (only a request id does), and a client that
 * goes away aborts the answer.
 */

const SQL_MESSAGE =
  'insert into "ask_docs_answers" ("id") values ($1) - relation "ask_docs_answers" does not exist';

interface LogLine {
  level: string;
  message: string;
  meta: unknown;
  fields: Record<string, unknown>;
}

function captureLogger(
  lines: LogLine[],
  fields: Record<string, unknown> = {},
): LoggerService {
  const at = (level: string) => (message: string, meta?: unknown) => {
    lines.push({ level, message, meta, fields });
  };
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: more => captureLogger(lines, { ...fields, ...more }),
  };
}

/** An audit event as logged: created (initiated), then succeeded or failed. */
interface AuditLine {
  eventId: string;
  status: 'initiated' | 'succeeded' | 'failed';
  severityLevel?: string;
  meta?: unknown;
  path?: string;
  error?: string;
  logged?: string;
}

function captureAuditor(lines: AuditLine[]): AuditorService {
  return {
    async createEvent(o: AuditorServiceCreateEventOptions) {
      const line = (status: AuditLine['status'], more: object = {}) =>
        lines.push({
          eventId: o.eventId,
          status,
          ...(o.severityLevel ? { severityLevel: o.severityLevel } : {}),
          meta: o.meta,
          path: o.request?.originalUrl,
          ...more,
        });
      line('initiated');
      return {
        success: async p => {
          line('succeeded', { meta: { ...o.meta, ...p?.meta } });
        },
        fail: async p => {
          line('failed', {
            error: `${p.error.name}: ${p.error.message}`,
            // Everything the auditor's logger would write of the error (its own fields too).
            logged: JSON.stringify(
              p.error,
              Object.getOwnPropertyNames(p.error),
            ),
          });
        },
      };
    },
  };
}

const STORED = {
  id: '0b7c2a52-1f5d-4c3e-9a43-7f1e2d3c4b5a',
  userRef: 'user:default/alice',
  status: 'answered',
};
const MISSING_ID = '6f1d0c1e-2b3a-4c5d-8e9f-0a1b2c3d4e5f';

describe('ask-docs router', () => {
  const logs: LogLine[] = [];
  const audit: AuditLine[] = [];
  let app: express.Express;
  let answer: (call: AnswerCallOptions) => Promise<any>;
  let denyAsk = false;
  let denyIngestion = false;
  let listFailure: Error | undefined;
  /** When set, prepare() waits for it (a slow permission check), after calling `entered`. */
  let slowPrepare: { entered: () => void; done: Promise<void> } | undefined;
  const answered: string[] = [];
  const service = {
    async prepare(req: any, credentials: any) {
      if (slowPrepare) {
        slowPrepare.entered();
        await slowPrepare.done;
      }
      if (denyAsk) throw new NotAllowedError('You may not ask the docs');
      return { request: req, credentials };
    },
    async answer(prepared: any, call: AnswerCallOptions) {
      answered.push(prepared.request.question);
      return answer(call);
    },
    async ask(req: any, call: any) {
      return service.answer(await service.prepare(req, call.credentials), call);
    },
    async getAnswer(id: string) {
      if (id === STORED.id) return STORED;
      if (id === MISSING_ID) return undefined;
      throw new Error(SQL_MESSAGE);
    },
    async setFeedback() {},
    async listAnswers() {
      if (listFailure) throw listFailure;
      return [];
    },
  };
  const alice = mockCredentials.user.header('user:default/alice');
  /** The router over the same fake service, with another auditor or question limit. */
  async function appWith(
    options: { auditor?: AuditorService; maxQuestionChars?: number } = {},
  ) {
    const logger = captureLogger(logs);
    const router = await createRouter({
      httpAuth: mockServices.httpAuth(),
      auditor: options.auditor ?? captureAuditor(audit),
      logger,
      askService: service as unknown as AskService,
      ingestion: {} as IngestionController,
      health: () => ({ status: 'ok' } as any),
      maxQuestionChars: options.maxQuestionChars ?? 200,
    });
    return withErrorMiddleware(router, logger);
  }
  const stream = (body: unknown) =>
    request(app)
      .post('/v1/ask/stream')
      .set('Authorization', alice)
      .send(body as object)
      .buffer(true)
      .parse(bufferText);

  beforeAll(async () => {
    const logger = captureLogger(logs);
    const router = await createRouter({
      httpAuth: mockServices.httpAuth(),
      auditor: captureAuditor(audit),
      logger,
      askService: service as unknown as AskService,
      ingestion: {
        async authorize() {
          if (denyIngestion)
            throw new NotAllowedError('You may not start ingestion');
        },
        async start() {
          return { started: true, running: true, runId: 7 };
        },
      } as unknown as IngestionController,
      health: () => ({ status: 'ok' } as any),
      maxQuestionChars: 200,
    });
    app = withErrorMiddleware(router, logger);
  });

  beforeEach(() => {
    logs.length = 0;
    audit.length = 0;
    answered.length = 0;
    denyAsk = false;
    denyIngestion = false;
    listFailure = undefined;
    slowPrepare = undefined;
    answer = async () => ({ id: 'a1', status: 'answered' });
  });

  it('refuses a question it may not ask with a JSON 403 before any event', async () => {
    denyAsk = true;
    const res = await stream({ question: 'How do I roll back?' });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(res.body).error).toMatchObject({
      name: 'NotAllowedError',
      message: 'You may not ask the docs',
    });
    expect(res.body).not.toMatch(/^data:/m);
    expect(answered).toEqual([]);
  });

  it('refuses bad input on the stream with the same JSON 400 as the JSON endpoint', async () => {
    const streamed = await stream({ question: '' });
    const plain = await request(app)
      .post('/v1/ask')
      .set('Authorization', alice)
      .send({ question: '' });
    expect(streamed.status).toBe(400);
    expect(streamed.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(streamed.body).error).toEqual(plain.body.error);
  });

  it('sends a generic stream error with a request id; the details go to the log only', async () => {
    answer = async () => {
      throw new Error(SQL_MESSAGE);
    };
    const res = await stream({ question: 'How do I roll back?' });
    expect(res.status).toBe(200);
    // A compressing proxy would hold the events (and the heartbeat) back.
    expect(res.headers['cache-control']).toMatch(/\bno-transform\b/);
    expect(res.body).not.toMatch(/ask_docs|relation|insert/i);
    const events = parseEvents(res.body);
    const error = events.find(e => e.type === 'error');
    expect(error).toEqual({
      type: 'error',
      message: 'Internal error',
      requestId: expect.any(String),
    });
    const logged = logs.find(l => l.level === 'error');
    expect(logged?.fields.requestId).toBe(error.requestId);
    expect(logged?.message).toContain(error.requestId);
    expect(String((logged?.meta as Error)?.message)).toContain(
      'relation "ask_docs_answers"',
    );
  });

  it.each([
    [
      'POST /v1/ask',
      () =>
        request(app)
          .post('/v1/ask')
          .set('Authorization', alice)
          .send({ question: 'Roll back?' }),
    ],
    [
      'GET /v1/answers/:id',
      () => request(app).get('/v1/answers/a1').set('Authorization', alice),
    ],
  ])(
    'answers an internal error on %s with a generic 500 and a request id',
    async (_name, call) => {
      answer = async () => {
        throw new Error(SQL_MESSAGE);
      };
      const res = await call();
      expect(res.status).toBe(500);
      expect(res.body.error).toEqual({
        name: 'InternalError',
        message: 'Internal error',
        requestId: expect.any(String),
      });
      expect(JSON.stringify(res.body)).not.toMatch(
        /ask_docs_answers|relation|insert into/i,
      );
      const logged = logs.find(
        l => l.fields.requestId === res.body.error.requestId,
      );
      expect(String((logged?.meta as Error)?.message)).toContain(
        'relation "ask_docs_answers"',
      );
    },
  );

  it('answers an ask stopped by the shutdown with 503, in JSON and in the stream', async () => {
    const restarting = RESTARTING_MESSAGE;
    answer = async () => {
      throw new ServiceUnavailableError(restarting);
    };
    const plain = await request(app)
      .post('/v1/ask')
      .set('Authorization', alice)
      .send({ question: 'Roll back?' });
    expect(plain.status).toBe(503);
    expect(plain.body.error).toMatchObject({
      name: 'ServiceUnavailableError',
      message: restarting,
    });
    const streamed = await stream({ question: 'Roll back?' });
    expect(parseEvents(streamed.body).find(e => e.type === 'error')).toEqual({
      type: 'error',
      message: restarting,
    });
    // No internal error with a request id: nothing failed that an operator must look up
    // (Backstage's own handler logs the 503 as it logs every 5xx).
    expect(logs.filter(l => l.fields.requestId)).toEqual([]);
  });

  it('answers an upstream error that carries a 401 as a generic 500, not as a 401', async () => {
    // Passed on, a bad model API key would make the frontend think the session expired.
    listFailure = new OpenAI.AuthenticationError(
      401,
      { message: 'Incorrect API key provided: sk-abc' },
      'Incorrect API key provided: sk-abc',
      new Headers(),
    );
    const res = await request(app)
      .get('/v1/answers')
      .set('Authorization', alice);
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({
      name: 'InternalError',
      message: 'Internal error',
      requestId: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/API key|sk-abc/);
  });

  it('still answers the caller’s own authentication errors with 401 and 403', async () => {
    const invalid = await request(app)
      .get('/v1/answers')
      .set('Authorization', mockCredentials.user.invalidHeader());
    expect(invalid.status).toBe(401);
    expect(invalid.body.error.name).toBe('AuthenticationError');
    const service = await request(app)
      .get('/v1/answers')
      .set('Authorization', mockCredentials.service.header());
    expect(service.status).toBe(403);
    expect(service.body.error.name).toBe('NotAllowedError');
  });

  it('keeps client errors as Backstage formats them', async () => {
    const res = await request(app)
      .get('/v1/nothing-here')
      .set('Authorization', alice);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({
      name: 'NotFoundError',
      message: 'No such ask-docs endpoint',
    });
  });

  it('aborts at once for a client that left before the listener was attached', () => {
    // (while the body was read or the caller authenticated: 'close' has fired already)
    const gone = { destroyed: true, writableEnded: false, on: jest.fn() };
    expect(abortOnClientClose(gone as any).aborted).toBe(true);
    const here = { destroyed: false, writableEnded: false, on: jest.fn() };
    expect(abortOnClientClose(here as any).aborted).toBe(false);
  });

  it('answers nothing when the client went away during the permission check', async () => {
    let release = () => {};
    const entered = new Promise<void>(resolve => {
      slowPrepare = {
        entered: resolve,
        done: new Promise<void>(r => (release = r)),
      };
    });
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise<void>(r => server.once('listening', () => r()));
      const { port } = server.address() as AddressInfo;
      const req = http.request({
        port,
        host: '127.0.0.1',
        path: '/v1/ask/stream',
        method: 'POST',
        headers: { Authorization: alice, 'Content-Type': 'application/json' },
      });
      req.on('error', () => {});
      req.end(JSON.stringify({ question: 'How do I roll back?' }));
      await entered;
      req.destroy();
      // The server sees the connection close, then the check completes.
      await new Promise(r => setTimeout(r, 100));
      release();
      await new Promise(r => setTimeout(r, 100));
      expect(answered).toEqual([]);
      expect(logs.filter(l => l.level === 'error')).toEqual([]);
      expect(audit.map(a => a.status)).toEqual(['initiated', 'failed']);
    } finally {
      await new Promise(r => server.close(r));
    }
  });

  it('aborts the answer when the client goes away mid-stream', async () => {
    let signal: AbortSignal | undefined;
    answer = call =>
      new Promise((_resolve, reject) => {
        signal = call.signal;
        call.onDelta?.('Roll ');
        call.signal?.addEventListener('abort', () =>
          reject(call.signal!.reason),
        );
      });
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise<void>(r => server.once('listening', () => r()));
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const req = http.request(
          {
            port,
            host: '127.0.0.1',
            path: '/v1/ask/stream',
            method: 'POST',
            headers: {
              Authorization: alice,
              'Content-Type': 'application/json',
            },
          },
          res => {
            res.on('data', (chunk: Buffer) => {
              if (chunk.toString().includes('"delta"')) {
                req.destroy();
                resolve();
              }
            });
          },
        );
        req.on('error', e => (signal?.aborted ? undefined : reject(e)));
        req.end(JSON.stringify({ question: 'How do I roll back?' }));
      });
      for (let i = 0; i < 50 && !signal?.aborted; i++)
        await new Promise(r => setTimeout(r, 20));
      expect(signal?.aborted).toBe(true);
      expect(logs.filter(l => l.level === 'error')).toEqual([]);
    } finally {
      await new Promise(r => server.close(r));
    }
  });

  describe('audit events', () => {
    const question = 'How do I roll back the zebrafoo release?';

    it('records an ask with its answer id and status, and never the question', async () => {
      answer = async () => ({ id: 'a1', status: 'answered', grounded: true });
      expect(
        (
          await request(app)
            .post('/v1/ask')
            .set('Authorization', alice)
            .send({ question })
        ).status,
      ).toBe(200);
      await stream({ question });
      const outcome = { answerId: 'a1', status: 'answered', grounded: true };
      const event = (queryType: string, path: string) => [
        { eventId: 'ask', status: 'initiated', meta: { queryType }, path },
        {
          eventId: 'ask',
          status: 'succeeded',
          meta: { queryType, ...outcome },
          path,
        },
      ];
      expect(audit).toEqual([
        ...event('json', '/v1/ask'),
        ...event('stream', '/v1/ask/stream'),
      ]);
      expect(JSON.stringify(audit)).not.toMatch(/zebrafoo/);
    });

    it('records why an ask got no model answer, as a spent quota', async () => {
      answer = async () => ({
        id: 'a2',
        status: 'evidence_only',
        grounded: false,
        reason: 'quota_exceeded',
      });
      await request(app)
        .post('/v1/ask')
        .set('Authorization', alice)
        .send({ question });
      expect(audit.find(a => a.status === 'succeeded')?.meta).toEqual({
        queryType: 'json',
        answerId: 'a2',
        status: 'evidence_only',
        grounded: false,
        reason: 'quota_exceeded',
      });
    });

    it('records a refused ask and a failed answer as failed, on both endpoints', async () => {
      denyAsk = true;
      await stream({ question });
      await request(app)
        .post('/v1/ask')
        .set('Authorization', alice)
        .send({ question });
      denyAsk = false;
      answer = async () => {
        throw new Error(SQL_MESSAGE);
      };
      await stream({ question });
      expect(
        audit.filter(a => a.status !== 'initiated').map(a => a.error),
      ).toEqual([
        'NotAllowedError: You may not ask the docs',
        'NotAllowedError: You may not ask the docs',
        `Error: ${SQL_MESSAGE}`,
      ]);
      // The client is told none of it (the stream's error event carries a request id only).
      expect(JSON.stringify(audit)).not.toMatch(/zebrafoo/);
    });

    it('records reading an answer by id, with whose it is, and a read that failed', async () => {
      await request(app)
        .get(`/v1/answers/${STORED.id}`)
        .set('Authorization', alice);
      await request(app)
        .get(`/v1/answers/${MISSING_ID}`)
        .set('Authorization', alice);
      await request(app).get('/v1/answers/a1').set('Authorization', alice);
      await request(app).get('/v1/answers').set('Authorization', alice);
      expect(
        audit
          .filter(a => a.status !== 'initiated')
          .map(({ eventId, status, meta, error }) => ({
            eventId,
            status,
            meta,
            ...(error ? { error } : {}),
          })),
      ).toEqual([
        {
          eventId: 'answer-fetch',
          status: 'succeeded',
          meta: {
            queryType: 'by-id',
            answerId: STORED.id,
            askedBy: 'user:default/alice',
            redacted: false,
          },
        },
        {
          eventId: 'answer-fetch',
          status: 'failed',
          meta: { queryType: 'by-id', answerId: MISSING_ID },
          error: expect.stringMatching(/^NotFoundError: /),
        },
        {
          // Not an answer id: the path's text is not written into the audit log.
          eventId: 'answer-fetch',
          status: 'failed',
          meta: { queryType: 'by-id' },
          error: `Error: ${SQL_MESSAGE}`,
        },
        {
          eventId: 'answer-fetch',
          status: 'succeeded',
          meta: { queryType: 'history', count: 0 },
        },
      ]);
      // A user's own reads are normal use; an audit reader's (a service) are not.
      expect(audit[0].severityLevel).toBe('low');
      await request(app)
        .get(`/v1/answers/${STORED.id}`)
        .set('Authorization', mockCredentials.service.header());
      expect(audit.at(-1)).toMatchObject({
        eventId: 'answer-fetch',
        severityLevel: 'medium',
      });
    });

    it('records feedback and runs at medium severity, a refused run as failed', async () => {
      await request(app)
        .post(`/v1/answers/${STORED.id}/feedback`)
        .set('Authorization', alice)
        .send({ rating: 'down', comment: 'the zebrafoo steps are wrong' });
      await request(app).post('/v1/ingestion/runs').set('Authorization', alice);
      denyIngestion = true;
      await request(app).post('/v1/ingestion/runs').set('Authorization', alice);
      expect(audit.filter(a => a.status !== 'initiated')).toEqual([
        expect.objectContaining({
          eventId: 'answer-feedback',
          severityLevel: 'medium',
          status: 'succeeded',
          meta: { answerId: STORED.id, rating: 'down' },
        }),
        expect.objectContaining({
          eventId: 'ingestion-run',
          severityLevel: 'medium',
          status: 'succeeded',
          meta: { runId: 7, started: true },
        }),
        expect.objectContaining({
          eventId: 'ingestion-run',
          status: 'failed',
          error: 'NotAllowedError: You may not start ingestion',
        }),
      ]);
      // The comment is the user's text: it stays in the answer record.
      expect(JSON.stringify(audit)).not.toMatch(/zebrafoo/);
    });

    it('writes only the name and message of an error, not what it carries', async () => {
      // An abandoned answer's error carries the text the model streamed so far.
      answer = async () => {
        throw Object.assign(new Error('The answer was abandoned'), {
          name: 'AnswerAbortedError',
          partial: { rawOutput: 'Roll back with the zebrafoo key' },
        });
      };
      await stream({ question });
      const [failed] = audit.filter(a => a.status === 'failed');
      expect(failed.error).toBe('AnswerAbortedError: The answer was abandoned');
      expect(JSON.parse(failed.logged!)).toEqual({
        name: 'AnswerAbortedError',
        message: 'The answer was abandoned',
      });
    });

    it('answers the request when logging its outcome fails, and logs that', async () => {
      const failing: AuditorService = {
        async createEvent() {
          return {
            success: async () => {
              throw new Error('audit sink down');
            },
            fail: async () => {
              throw new Error('audit sink down');
            },
          };
        },
      };
      const withFailingAudit = await appWith({ auditor: failing });
      answer = async () => ({ id: 'a1', status: 'answered', grounded: true });
      const ok = await request(withFailingAudit)
        .post('/v1/ask')
        .set('Authorization', alice)
        .send({ question });
      expect(ok.status).toBe(200);
      expect(ok.body.id).toBe('a1');
      // A refusal stays a refusal (not a 500 from the audit).
      denyAsk = true;
      const refused = await request(withFailingAudit)
        .post('/v1/ask')
        .set('Authorization', alice)
        .send({ question });
      expect(refused.status).toBe(403);
      expect(
        logs.filter(
          l => l.level === 'error' && /audit event failed/.test(l.message),
        ),
      ).toHaveLength(2);
    });

    it('takes the longest question a raised maxQuestionChars allows, and no more', async () => {
      const long = await appWith({ maxQuestionChars: 30_000 });
      // 30,000 characters escaped as six bytes each: 180 kB, over the 64 kB of a short limit.
      const longest = 'ř'.repeat(30_000);
      const escaped = JSON.stringify({ question: longest }).replace(
        /ř/g,
        '\\u0159',
      );
      const ok = await request(long)
        .post('/v1/ask')
        .set('Authorization', alice)
        .set('Content-Type', 'application/json')
        .send(escaped);
      expect(ok.status).toBe(200);
      expect(answered).toEqual([longest]);
      const tooLong = await request(long)
        .post('/v1/ask')
        .set('Authorization', alice)
        .set('Content-Type', 'application/json')
        .send(escaped.replace('"}', `${'\\u0159'.repeat(10_000)}"}`));
      expect(tooLong.status).toBe(413);
      expect(tooLong.body.error.message).toBe(
        'The request body is too large (at most 192 kB; a question is limited to 30000 ' +
          'characters)',
      );
      expect(answered).toHaveLength(1);
    });

    it('records nothing for a request that did not authenticate', async () => {
      for (const path of ['/v1/ask', '/v1/ask/stream']) {
        const res = await request(app)
          .post(path)
          .set('Authorization', mockCredentials.user.invalidHeader())
          .send({ question });
        expect(res.status).toBe(401);
      }
      expect(audit).toEqual([]);
    });
  });
});
