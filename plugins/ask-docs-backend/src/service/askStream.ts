import {
  AuditorService,
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { AskStreamEvent } from '@askdocs/plugin-ask-docs-common';
import express from 'express';
import { AskService } from './AskService';
import { answerOutcome, AuditedCall, viaMeta } from './auditing';
import {
  abortOnClientClose,
  clientErrorStatus,
  INTERNAL_ERROR_MESSAGE,
  logInternalError,
} from './errors';
import { AskDocsApiRouter } from './openapiRouter';
import { parseAskRequest } from './validation';

/**
 * POST /v1/ask/stream: server-sent events (`data: <AskStreamEvent JSON>`). The spec declares the
 * body as text/event-stream; the events are validated against AskStreamEvent in the drift test.
 */
export function bindAskStreamEndpoint(
  api: AskDocsApiRouter,
  options: {
    httpAuth: HttpAuthService;
    auditor: AuditorService;
    logger: LoggerService;
    askService: AskService;
    maxQuestionChars: number;
  },
) {
  const { httpAuth, auditor, logger, askService, maxQuestionChars } = options;
  api.post('/v1/ask/stream', async (req, res) => {
    // Input, authentication, the ask permission and stale visibility (503) fail as JSON before
    // the stream starts.
    const request = parseAskRequest(req.body, maxQuestionChars);
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    // Listening before the permission check: a client gone during it is not answered.
    const signal = abortOnClientClose(res);
    // One audit event from the permission check to the last event (auditing.ts).
    const audit = await AuditedCall.start(auditor, logger, {
      eventId: 'ask',
      request: req,
      meta: { queryType: 'stream', ...viaMeta(credentials) },
    });
    const prepared = await askService
      .prepare(request, credentials)
      .catch(async e => {
        await audit.failed(e);
        throw e;
      });
    if (signal.aborted) {
      await audit.failed(new Error('the client left before the answer'));
      return; // nobody is left to answer
    }
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream');
    // no-transform: a compressing proxy would buffer the events.
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const stopHeartbeat = startHeartbeat(res);
    const send = (event: AskStreamEvent) => {
      if (signal.aborted) return;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      (res as any).flush?.();
    };
    let outcome: () => Promise<void>;
    try {
      send({ type: 'status', phase: 'retrieving' });
      const response = await askService.answer(prepared, {
        signal,
        onPhase: phase => send({ type: 'status', phase }),
        onDelta: text => send({ type: 'delta', text }),
      });
      send({ type: 'done', response });
      outcome = () => audit.succeeded(answerOutcome(response));
    } catch (e) {
      outcome = () => audit.failed(e);
      if (signal.aborted) {
        logger.info(
          'ask-docs: the client left; the streaming answer was aborted',
        );
      } else if (clientErrorStatus(e) === 503) {
        // The shutdown stopped it: the JSON endpoint's 503 and message, nothing to look up.
        logger.info(`ask-docs: streaming answer stopped: ${e}`);
        send({ type: 'error', message: (e as Error).message });
      } else {
        const requestId = logInternalError(logger, e, 'streaming answer');
        send({ type: 'error', message: INTERNAL_ERROR_MESSAGE, requestId });
      }
    }
    stopHeartbeat();
    res.end();
    await outcome();
  });
}

/**
 * Proxies (nginx, ALB) cut a connection idle for 60 s by default, and nothing is written between
 * the `generating` status and the model's first delta: two 30 s model attempts after retrieval
 * take longer.
 */
export const HEARTBEAT_INTERVAL_MS = 15_000;

/**
 * Writes an SSE comment (ignored by clients) every `intervalMs` until stopped or the response
 * closes. Returns the stop function.
 */
export function startHeartbeat(
  res: express.Response,
  intervalMs = HEARTBEAT_INTERVAL_MS,
): () => void {
  const timer = setInterval(() => {
    if (res.writableEnded || res.destroyed) return;
    res.write(': ping\n\n');
    (res as any).flush?.(); // compression's, as for the events
  }, intervalMs);
  const stop = () => clearInterval(timer);
  res.once('close', stop);
  return stop;
}
