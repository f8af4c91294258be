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

/**
 * The message worth showing a user: the server's own error rather than "Request failed with 400".
 * A body that is not a Backstage error (a proxy's 502 page, an upstream's 413) would otherwise
 * show its whole text, markup included, so only its status is shown. The texts the plugin itself
 * words are translated with `t`; the server's stay as sent.
 */
export function describeError(error: unknown, t: AskDocsTranslate): string {
  if (error instanceof IncompleteStreamError)
    return t('errors.incompleteStream');
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

/** True when the backend refused the caller (e.g. a non-admin reading ingestion progress). */
export function isForbidden(error: unknown): boolean {
  return ResponseError.is(error) && error.statusCode === 403;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
