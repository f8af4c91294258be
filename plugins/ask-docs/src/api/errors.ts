import { ResponseError } from '@backstage/errors';

/**
 * The message worth showing a user: the server's own error rather than "Request failed with 400".
 */
export function describeError(error: unknown): string {
  if (ResponseError.is(error)) {
    return error.cause?.message || error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** True when the backend refused the caller (e.g. a non-admin reading ingestion progress). */
export function isForbidden(error: unknown): boolean {
  return ResponseError.is(error) && error.statusCode === 403;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
