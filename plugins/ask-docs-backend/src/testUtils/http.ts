import { MiddlewareFactory } from '@backstage/backend-defaults/rootHttpRouter';
import { LoggerService } from '@backstage/backend-plugin-api';
import { ConfigReader } from '@backstage/config';
import express from 'express';
import type { Test } from 'supertest';

/** An app serving `router`, followed by the error middleware Backstage's httpRouter adds. */
export function withErrorMiddleware(
  router: express.Router,
  logger: LoggerService,
) {
  const app = express();
  app.use(router);
  app.use(
    MiddlewareFactory.create({ config: new ConfigReader({}), logger }).error(),
  );
  return app;
}

/** For supertest's `.buffer(true).parse(...)`: the whole body as text (server-sent events). */
export const bufferText: Parameters<Test['parse']>[0] = (res, callback) => {
  let text = '';
  res.on('data', (chunk: Buffer) => (text += chunk.toString()));
  res.on('end', () => callback(null, text));
};

/** The events of a server-sent event stream, one JSON `data:` line each. */
export function parseEvents(text: unknown): any[] {
  return (
    String(text)
      .split('\n\n')
      // A comment block (the stream's `: ping` heartbeat) is no event.
      .filter(block => block && !block.startsWith(':'))
      .map(block => JSON.parse(block.replace(/^data: /, '')))
  );
}
