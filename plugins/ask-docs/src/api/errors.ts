import { ResponseError } from '@backstage/errors';
import type { AskDocsTranslate } from '../translation';

/** IncompleteStreamError's message; the UI shows errors.incompleteStream, whose default it is. */
export const INCOMPLETE_STREAM_MESSAGE =
  'The answer stream ended before the answer was complete';

/** The answer stream closed before its final event (a proxy cut it, the backend restarted). */
export class IncompleteStreamError extends Error {
  name = 'IncompleteStreamError';
  constructor() {
    super(INCOMPLETE_STREAM_MESSAGE);
  }
}

/** MalformedStreamError's message; the UI shows errors.malformedStream, whose default it is. */
export const MALFORMED_STREAM_MESSAGE =
  'The answer stream sent an event that could not be read';

/**
 * An answer stream event that is not JSON (a proxy rewrote the stream). The payload is not
 * quoted: it is whatever the proxy sent, and the message is shown to users.
 */
export class MalformedStreamError extends Error {
  name = 'MalformedStreamError';
  constructor() {
    super(MALFORMED_STREAM_MESSAGE);
  }
}

/** InvalidAnswerIdError's message; the UI shows errors.invalidAnswerId, whose default it is. */
export const INVALID_ANSWER_ID_MESSAGE = 'Not an answer id';

/** An answer id the client refuses to put in a path (it could name another endpoint). */
export class InvalidAnswerIdError extends Error {
  name = 'InvalidAnswerIdError';
  readonly id: string;
  constructor(id: string) {
    // The id in English for developers; the UI's text leaves it out.
    super(`${INVALID_ANSWER_ID_MESSAGE}: ${JSON.stringify(id)}`);
    this.id = id;
  }
}

/**
 * The message worth showing a user: the server's own error rather than "Request failed with 400".
 * A body that is not a Backstage error (a proxy's 502 page, an upstream's 413) would otherwise
 * show its whole text, markup included, so only its status is shown. The texts the plugin itself
 * words are translated with `t`; the server's stay as sent.
 */
export function describeError(error: unknown, t: AskDocsTranslate): string {
  if (error instanceof IncompleteStreamError)
    return t('errors.incompleteStream');
  if (error instanceof MalformedStreamError) return t('errors.malformedStream');
  if (error instanceof InvalidAnswerIdError) return t('errors.invalidAnswerId');
  if (ResponseError.is(error)) {
    if (!isBackstageErrorBody(error)) {
      const status = `${error.statusCode} ${error.statusText ?? ''}`.trim();
      return t('errors.requestFailed', { status });
    }
    return error.cause?.message || error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The id under which the backend logged an internal error's details, if it sent one. */
export function errorRequestId(error: unknown): string | undefined {
  if (!ResponseError.is(error) || !isBackstageErrorBody(error))
    return undefined;
  const requestId = (error.cause as { requestId?: unknown }).requestId;
  return typeof requestId === 'string' && requestId ? requestId : undefined;
}

/**
 * ResponseError.fromResponse substitutes its own body, quoting the response text, for anything
 * but a JSON `{ error, response }` body; its message then starts with this.
 */
const SUBSTITUTED_MESSAGE = 'Request failed with status ';

function isBackstageErrorBody(error: ResponseError): boolean {
  const type = error.response?.headers?.get('content-type') ?? '';
  return (
    type.startsWith('application/json') &&
    !String(error.cause?.message ?? '').startsWith(SUBSTITUTED_MESSAGE)
  );
}

/** The HTTP status the backend answered a failed call with; undefined when none arrived. */
export function errorStatus(error: unknown): number | undefined {
  return ResponseError.is(error) ? error.statusCode : undefined;
}

/**
 * Whether asking the same again may succeed: after a network error, a server error (5xx, e.g.
 * 503 while the backend restarts) or a stream that was cut off. A 4xx (a question too long,
 * a refused caller, a proxy's 413) and a stream the client cannot read fail the same again.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof IncompleteStreamError) return true;
  if (error instanceof MalformedStreamError) return false;
  if (error instanceof InvalidAnswerIdError) return false;
  const status = errorStatus(error);
  // No status: the request got no response (fetch rejects with a TypeError then).
  return status === undefined || status >= 500;
}

/** True when the backend refused the caller (e.g. a non-admin reading ingestion progress). */
export function isForbidden(error: unknown): boolean {
  return ResponseError.is(error) && error.statusCode === 403;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
