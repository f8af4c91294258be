import { HttpAuthService, LoggerService } from '@backstage/backend-plugin-api';
import { NotFoundError } from '@backstage/errors';
import express from 'express';
import Router from 'express-promise-router';
import { AskStreamEvent, HealthResponse } from '@askdocs/plugin-ask-docs-common';
import { AskService } from './AskService';
import {
  abortOnClientClose,
  INTERNAL_ERROR_MESSAGE,
  internalErrorHandler,
  logInternalError,
} from './errors';
import { IngestionController } from './IngestionController';
import { parseAskRequest, parseFeedback, parseLimit } from './validation';

export interface RouterOptions {
  httpAuth: HttpAuthService;
  logger: LoggerService;
  askService: AskService;
  ingestion: IngestionController;
  health: () => HealthResponse;
  maxQuestionChars: number;
}

/** Thin HTTP layer: validation and (de)serialisation only; the services decide everything. */
export async function createRouter(options: RouterOptions): Promise<express.Router> {
  const { httpAuth, askService, ingestion, maxQuestionChars } = options;
  const router = Router();
  router.use(express.json({ limit: '64kb' }));

  router.get('/health', (_req, res) => {
    res.json(options.health());
  });

  router.post('/v1/ask', async (req, res) => {
    const request = parseAskRequest(req.body, maxQuestionChars);
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const signal = abortOnClientClose(res);
    try {
      res.json(await askService.ask(request, { credentials, signal }));
    } catch (e) {
      if (!signal.aborted) throw e; // nobody is left to answer
    }
  });

  router.post('/v1/ask/stream', async (req, res) => {
    // Input, authentication and the ask permission fail as JSON 4xx before the stream starts.
    const request = parseAskRequest(req.body, maxQuestionChars);
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const prepared = await askService.prepare(request, credentials);
    const signal = abortOnClientClose(res);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const send = (event: AskStreamEvent) => {
      if (signal.aborted) return;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      (res as any).flush?.();
    };
    try {
      send({ type: 'status', phase: 'retrieving' });
      const response = await askService.answer(prepared, {
        signal,
        onPhase: phase => send({ type: 'status', phase }),
        onDelta: text => send({ type: 'delta', text }),
      });
      send({ type: 'done', response });
    } catch (e) {
      if (signal.aborted) {
        options.logger.info('ask-docs: the client left; the streaming answer was aborted');
      } else {
        const requestId = logInternalError(options.logger, e, 'streaming answer');
        send({ type: 'error', message: INTERNAL_ERROR_MESSAGE, requestId });
      }
    }
    res.end();
  });

  router.get('/v1/answers', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    const items = await askService.listAnswers({ credentials, limit: parseLimit(req.query.limit) });
    res.json({ items });
  });

  router.get('/v1/answers/:id', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const record = await askService.getAnswer(req.params.id, { credentials });
    if (!record) throw new NotFoundError(`No answer ${req.params.id}`);
    res.json(record);
  });

  router.post('/v1/answers/:id/feedback', async (req, res) => {
    const feedback = parseFeedback(req.body);
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    await askService.setFeedback(req.params.id, feedback, { credentials });
    res.status(204).end();
  });

  router.get('/v1/ingestion', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    await ingestion.authorize(credentials);
    res.json(await ingestion.progress());
  });

  router.post('/v1/ingestion/runs', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user', 'service'] });
    await ingestion.authorize(credentials);
    res.status(202).json(await ingestion.start());
  });

  router.use((_req, _res, next) => next(new NotFoundError('No such ask-docs endpoint')));
  router.use(internalErrorHandler(options.logger));
  return router;
}
