import { LoggerService } from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import { randomUUID } from 'crypto';
import express from 'express';

/** What clients are told about any server-side failure; the details are logged. */
export const INTERNAL_ERROR_MESSAGE = 'Internal error';

const CLIENT_ERROR_STATUS: Record<string, number> = {
  InputError: 400,
  AuthenticationError: 401,
  NotAllowedError: 403,
  NotFoundError: 404,
  ConflictError: 409,
};

/**
 * The 4xx status of an error whose message is written for the client (our InputError and
 * friends, body-parser's 400/413), or undefined for everything else.
 */
export function clientErrorStatus(error: unknown): number | undefined {
  if (!isError(error)) return undefined;
  for (const field of ['statusCode', 'status']) {
    const status = (error as unknown as Record<string, unknown>)[field];
    if (
      typeof status === 'number' &&
      Number.isInteger(status) &&
      status >= 400 &&
      status < 500
    ) {
      return status;
    }
  }
  return CLIENT_ERROR_STATUS[error.name];
}

/** Logs an internal failure with a fresh request id and returns the id for the client. */
export function logInternalError(
  logger: LoggerService,
  error: unknown,
  what: string,
): string {
  const requestId = randomUUID();
  logger
    .child({ requestId })
    .error(
      `ask-docs: ${what} failed (requestId ${requestId})`,
      isError(error) ? error : { error: String(error) },
    );
  return requestId;
}

/**
 * Answers internal errors with a generic body and a request id instead of their message, which
 * may carry SQL, table names or upstream replies. Backstage's own handler only filters database
 * errors by class name; client errors still go to it, so their shape stays Backstage's.
 */
export function internalErrorHandler(
  logger: LoggerService,
): express.ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent || clientErrorStatus(error) !== undefined) {
      next(error);
      return;
    }
    const requestId = logInternalError(
      logger,
      error,
      `${req.method} ${req.originalUrl}`,
    );
    res.status(500).json({
      error: {
        name: 'InternalError',
        message: INTERNAL_ERROR_MESSAGE,
        requestId,
      },
      request: { method: req.method, url: req.originalUrl },
      response: { statusCode: 500 },
    });
  };
}

/** Aborted when the client goes away before the response is complete. */
export function abortOnClientClose(res: express.Response): AbortSignal {
  const controller = new AbortController();
  // Gone already (while the body was read or the caller authenticated): 'close' will not fire.
  if (res.destroyed && !res.writableEnded) {
    controller.abort(new Error('The client closed the connection'));
  }
  // 'close' also follows a normal end; only an unfinished response means the client left.
  res.on('close', () => {
    if (!res.writableEnded)
      controller.abort(new Error('The client closed the connection'));
  });
  return controller.signal;
}
