import { LoggerService } from '@backstage/backend-plugin-api';
import { CustomErrorBase, InputError, isError } from '@backstage/errors';
import { randomUUID } from 'crypto';
import express from 'express';

/** What clients are told about any server-side failure; the details are logged. */
export const INTERNAL_ERROR_MESSAGE = 'Internal error';

/**
 * Backstage's error classes (@backstage/errors), whose messages are written for the client. They
 * carry no status field: the error middleware maps them by name.
 */
const BACKSTAGE_CLIENT_ERRORS: Record<string, number> = {
  InputError: 400,
  AuthenticationError: 401,
  NotAllowedError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  // Not the client's fault, but written for it: ask again (an ask cut off at shutdown).
  ServiceUnavailableError: 503,
};

/** A client error this plugin sends with a status Backstage has no error class for. */
abstract class StatusError extends CustomErrorBase {
  // A getter, not a field: Backstage's middleware reads it, its serializer leaves it out.
  abstract get statusCode(): number;
}

export class PayloadTooLargeError extends StatusError {
  get statusCode() {
    return 413;
  }
}

export class UnsupportedMediaTypeError extends StatusError {
  get statusCode() {
    return 415;
  }
}

/**
 * The status of an error whose message is written for the client (Backstage's InputError and
 * friends, 503 for a shutdown, this plugin's 413 and 415), or undefined for everything else. An
 * error that carries its own status (an SDK's 401 for a bad API key) is an upstream failure:
 * passed on, it would tell the frontend that the user's session expired.
 */
export function clientErrorStatus(error: unknown): number | undefined {
  if (!isError(error)) return undefined;
  if (error instanceof StatusError) return error.statusCode;
  const fields = error as unknown as Record<string, unknown>;
  if (fields.status !== undefined || fields.statusCode !== undefined) {
    return undefined;
  }
  return BACKSTAGE_CLIENT_ERRORS[error.name];
}

/**
 * body-parser's client errors, by their `type`, as errors that echo nothing of the request (its
 * own would send the raw body of a malformed request back, with its internal fields).
 */
export function fromBodyParserError(
  error: unknown,
  limits: { bodyLimitKb: number; maxQuestionChars: number },
): Error | undefined {
  const type = isError(error) ? (error as { type?: unknown }).type : undefined;
  switch (type) {
    case 'entity.parse.failed':
      return new InputError('The request body is not valid JSON');
    case 'entity.too.large':
      return new PayloadTooLargeError(
        `The request body is too large (at most ${limits.bodyLimitKb} kB; a question is ` +
          `limited to ${limits.maxQuestionChars} characters)`,
      );
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError('The request body must be UTF-8');
    case 'encoding.unsupported':
      return new UnsupportedMediaTypeError(
        'The Content-Encoding of the request body is not supported',
      );
    case 'request.aborted':
    case 'request.size.invalid':
      return new InputError('The request body was not received completely');
    default:
      return undefined;
  }
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
  limits: { bodyLimitKb: number; maxQuestionChars: number },
): express.ErrorRequestHandler {
  return (rawError, req, res, next) => {
    const error = fromBodyParserError(rawError, limits) ?? rawError;
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
