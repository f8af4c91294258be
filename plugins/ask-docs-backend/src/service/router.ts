import {
  AuditorService,
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { InputError, NotFoundError } from '@backstage/errors';
import express from 'express';
import Router from 'express-promise-router';
import {
  HealthResponse,
  noAnswerMessage,
} from '@askdocs/plugin-ask-docs-common';
import { AskService } from './AskService';
import { answerIdMeta, answerOutcome, audited, viaMeta } from './auditing';
import { bindAskStreamEndpoint } from './askStream';
import { spec } from '../schema/openapi';
import {
  abortOnClientClose,
  internalErrorHandler,
  UnsupportedMediaTypeError,
} from './errors';
import { IngestionController } from './IngestionController';
import { AskDocsApiRouter, createAskDocsApiRouter } from './openapiRouter';
import {
  parseAskRequest,
  parseBefore,
  parseFeedback,
  parseLimit,
} from './validation';

export interface RouterOptions {
  httpAuth: HttpAuthService;
  /** Asks, answer reads, feedback and started runs become audit events (auditing.ts). */
  auditor: AuditorService;
  logger: LoggerService;
  askService: AskService;
  ingestion: IngestionController;
  /** `signedIn`: the caller is a user or a service, who may see what runs and how it fares. */
  health: (o: { signedIn: boolean }) => Promise<HealthResponse>;
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
  const limitKb = bodyLimitKb(options.maxQuestionChars);
  router.use(jsonBody(express.json({ limit: `${limitKb}kb` })));
  router.use(refuseUndeclaredHeadQuery);
  const api = await createAskDocsApiRouter();
  bindAskEndpoints(api, options);
  bindAskStreamEndpoint(api, options);
  bindAnswerEndpoints(api, options);
  bindIngestionEndpoints(api, options);
  router.use(api);
  router.use((_req, _res, next) =>
    next(new NotFoundError('No such ask-docs endpoint')),
  );
  router.use(
    internalErrorHandler(options.logger, {
      bodyLimitKb: limitKb,
      maxQuestionChars: options.maxQuestionChars,
    }),
  );
  return router;
}

/**
 * The largest JSON body taken: room for the longest question allowed (at most 6 bytes for
 * each of its UTF-16 units, as a client that escapes non-ASCII writes "\u0159"), its scope and
 * thread, and never less than 64 kB. A fixed limit would refuse, as too large, questions a
 * raised `answer.maxQuestionChars` allows.
 */
export function bodyLimitKb(maxQuestionChars: number): number {
  return Math.max(64, Math.ceil((6 * maxQuestionChars) / 1024) + 16);
}

type Parameter = { $ref?: string; name?: string; in?: string };
type Operation = { requestBody?: unknown; parameters?: readonly Parameter[] };
const PARAMETERS: Record<string, Parameter> = spec.components.parameters;
const OPERATIONS = Object.entries(spec.paths).map(([template, item]) => ({
  // As express matches: case-insensitive, an optional trailing slash.
  pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i'),
  item: item as Record<string, Operation | undefined>,
}));

/** The spec's operation for a method and router-relative path, if any. */
function specOperation(method: string, path: string): Operation | undefined {
  return OPERATIONS.find(o => o.pattern.test(path))?.item[method.toLowerCase()];
}

/**
 * Parses the JSON body of the operations that declare one. Another media type is the spec's
 * 415 (the validator would send it as a 400, as it does all of its errors).
 */
const jsonBody =
  (parseJson: express.RequestHandler): express.RequestHandler =>
  (req, res, next) => {
    if (!specOperation(req.method, req.path)?.requestBody) {
      next();
    } else if (req.is('application/json') === false) {
      next(
        new UnsupportedMediaTypeError(
          'The request body must be application/json',
        ),
      );
    } else {
      parseJson(req, res, next);
    }
  };

/**
 * Express answers HEAD with the GET route, but the validator skips HEAD as an undocumented
 * operation: the query parameters GET does not declare are refused here, as it would.
 */
const refuseUndeclaredHeadQuery: express.RequestHandler = (req, _res, next) => {
  if (req.method !== 'HEAD') {
    next();
    return;
  }
  const declared = (specOperation('get', req.path)?.parameters ?? [])
    .map(p => (p.$ref ? PARAMETERS[p.$ref.split('/').pop()!] : p))
    .filter(p => p?.in === 'query')
    .map(p => p.name);
  const unknown = Object.keys(req.query).find(k => !declared.includes(k));
  next(
    unknown === undefined
      ? undefined
      : new InputError(`Unknown query parameter '${unknown}'`),
  );
};

function bindAskEndpoints(api: AskDocsApiRouter, options: RouterOptions) {
  const { httpAuth, auditor, logger, askService, maxQuestionChars } = options;
  api.get('/health', async (req, res) => {
    // Public (load balancers probe it): an anonymous caller learns only that the plugin is up;
    // which models run, and why the model last failed, is for a signed-in caller.
    const signedIn = await httpAuth
      .credentials(req, { allow: ['user', 'service'] })
      .then(
        () => true,
        () => false,
      );
    res.json(await options.health({ signedIn }));
  });

  api.post('/v1/ask', async (req, res) => {
    const request = parseAskRequest(req.body, maxQuestionChars);
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const signal = abortOnClientClose(res);
    try {
      const response = await audited(
        auditor,
        logger,
        {
          eventId: 'ask',
          request: req,
          meta: { queryType: 'json', ...viaMeta(credentials) },
        },
        () => askService.ask(request, { credentials, signal }),
        answerOutcome,
      );
      res.json(response);
    } catch (e) {
      if (!signal.aborted) throw e; // nobody is left to answer
    }
  });
}

function bindAnswerEndpoints(api: AskDocsApiRouter, options: RouterOptions) {
  const { httpAuth, auditor, logger, askService } = options;
  api.get('/v1/answers', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    const limit = parseLimit(req.query.limit);
    const before = parseBefore(req.query.before);
    const items = await audited(
      auditor,
      logger,
      {
        eventId: 'answer-fetch',
        request: req,
        meta: { queryType: 'history', ...viaMeta(credentials) },
      },
      () => askService.listAnswers({ credentials, limit, before }),
      found => ({ count: found.length }),
    );
    res.json({ items });
  });

  api.get('/v1/answers/:id', async (req, res) => {
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const answerId = req.params.id;
    const record = await audited(
      auditor,
      logger,
      {
        eventId: 'answer-fetch',
        // A service reads other users' answers (an audit reader): logged at the level of
        // Backstage's default configuration, where a user's own reads are not.
        severityLevel:
          credentials.principal.type === 'service' ? 'medium' : 'low',
        request: req,
        meta: {
          queryType: 'by-id',
          ...answerIdMeta(answerId),
          ...viaMeta(credentials),
        },
      },
      async () => {
        const found = await askService.getAnswer(answerId, { credentials });
        if (!found) throw new NotFoundError(noAnswerMessage(answerId));
        return found;
      },
      // An audit reader reading someone's answer is what an audit of the auditors looks for.
      found => ({ askedBy: found.userRef, redacted: Boolean(found.redacted) }),
    );
    res.json(record);
  });

  api.post('/v1/answers/:id/feedback', async (req, res) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    const feedback = parseFeedback(req.body);
    await audited(
      auditor,
      logger,
      {
        eventId: 'answer-feedback',
        severityLevel: 'medium',
        request: req,
        meta: {
          ...answerIdMeta(req.params.id),
          rating: feedback.rating,
          ...viaMeta(credentials),
        },
      },
      () => askService.setFeedback(req.params.id, feedback, { credentials }),
    );
    res.status(204).end();
  });
}

function bindIngestionEndpoints(api: AskDocsApiRouter, options: RouterOptions) {
  const { httpAuth, auditor, logger, ingestion } = options;
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

  // Reading progress is polled every few seconds and reveals little: not an audit event.
  api.post('/v1/ingestion/runs', async (req, res) => {
    // Authenticated before the event (the auditor names the caller from the request).
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const started = await audited(
      auditor,
      logger,
      {
        eventId: 'ingestion-run',
        severityLevel: 'medium',
        request: req,
        meta: viaMeta(credentials),
      },
      async () => {
        await authorize(req);
        return ingestion.start();
      },
      run => ({
        ...(run.runId !== undefined ? { runId: run.runId } : {}),
        started: run.started,
      }),
    );
    res.status(202).json(started);
  });
}
