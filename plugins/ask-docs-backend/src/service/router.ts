import { HttpAuthService, LoggerService } from '@backstage/backend-plugin-api';
import { NotFoundError } from '@backstage/errors';
import express from 'express';
import Router from 'express-promise-router';
import { HealthResponse } from '@askdocs/plugin-ask-docs-common';
import { AskService } from './AskService';
import { bindAskStreamEndpoint } from './askStream';
import { abortOnClientClose, internalErrorHandler } from './errors';
import { IngestionController } from './IngestionController';
import { AskDocsApiRouter, createAskDocsApiRouter } from './openapiRouter';
import { parseAskRequest, parseLimit } from './validation';

export interface RouterOptions {
  httpAuth: HttpAuthService;
  logger: LoggerService;
  askService: AskService;
  ingestion: IngestionController;
  /** `signedIn`: the caller is a user or a service, who may see why the model last failed. */
  health: (o: { signedIn: boolean }) => HealthResponse;
  maxQuestionChars: number;
}

/**
 * Thin HTTP layer over the services. Routes, parameters, bodies and responses are typed from
 * src/schema/openapi.yaml (the contract) and requests are validated against it; the services
 * decide everything else. openapiDrift.test.ts fails when the routes and the spec disagree.
 */
export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const router = Router();
  router.use(express.json({ limit: '64kb' }));
  const api = await createAskDocsApiRouter();
  bindAskEndpoints(api, options);
  bindAskStreamEndpoint(api, options);
  bindAnswerEndpoints(api, options);
  bindIngestionEndpoints(api, options);
  router.use(api);
  router.use((_req, _res, next) =>
    next(new NotFoundError('No such ask-docs endpoint')),
  );
  router.use(internalErrorHandler(options.logger));
  return router;
}

function bindAskEndpoints(api: AskDocsApiRouter, options: RouterOptions) {
  const { httpAuth, askService, maxQuestionChars } = options;
  api.get('/health', async (req, res) => {
    // Public (load balancers probe it); the model's last failure only for a signed-in caller.
    const signedIn = await httpAuth
      .credentials(req, { allow: ['user', 'service'] })
      .then(
        () => true,
        () => false,
      );
    res.json(options.health({ signedIn }));
  });

  api.post('/v1/ask', async (req, res) => {
    const request = parseAskRequest(req.body, maxQuestionChars);
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const signal = abortOnClientClose(res);
    try {
      res.json(await askService.ask(request, { credentials, signal }));
    } catch (e) {
      if (!signal.aborted) throw e; // nobody is left to answer
    }
  });
}

function bindAnswerEndpoints(api: AskDocsApiRouter, options: RouterOptions) {
  const { httpAuth, askService } = options;
  api.get('/v1/answers', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    const limit = parseLimit(req.query.limit);
    res.json({ items: await askService.listAnswers({ credentials, limit }) });
  });

  api.get('/v1/answers/:id', async (req, res) => {
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const record = await askService.getAnswer(req.params.id, { credentials });
    if (!record) throw new NotFoundError(`No answer ${req.params.id}`);
    res.json(record);
  });

  api.post('/v1/answers/:id/feedback', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    await askService.setFeedback(req.params.id, req.body, { credentials });
    res.status(204).end();
  });
}

function bindIngestionEndpoints(api: AskDocsApiRouter, options: RouterOptions) {
  const { httpAuth, ingestion } = options;
  const authorize = async (req: express.Request) => {
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    await ingestion.authorize(credentials);
  };
  api.get('/v1/ingestion', async (req, res) => {
    await authorize(req);
    res.json(await ingestion.progress());
  });

  api.post('/v1/ingestion/runs', async (req, res) => {
    await authorize(req);
    res.status(202).json(await ingestion.start());
  });
}
