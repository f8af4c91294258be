import { ApiRouter } from '@backstage/backend-openapi-utils';
import { RequestHandler } from 'express';
import { createOpenApiRouter, spec } from '../schema/openapi';

/** The express router typed from src/schema/openapi.yaml: paths, params, bodies, responses. */
export type AskDocsApiRouter = ApiRouter<typeof spec>;

/**
 * A router that validates requests against the spec (400 InputError on a mismatch) before any
 * handler runs. Body parsing is left to the caller's express.json() with its size limit: the
 * spec router maps every error of its own middleware to 400, which would turn a 413 into a 400.
 */
export async function createAskDocsApiRouter(): Promise<AskDocsApiRouter> {
  return createOpenApiRouter({ middleware: [passThrough] });
}

const passThrough: RequestHandler = (_req, _res, next) => next();
