import { mockServices } from '@backstage/backend-test-utils';
import http from 'http';
import { AddressInfo } from 'net';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { HashingEmbedder } from '../embedding';
import { Ingester, IngesterOptions } from '../ingestion/Ingester';
import { EntitySource } from '../ingestion/sources';
import {
  TechDocsBackendReader,
  TechDocsBackendReaderOptions,
} from '../ingestion/techDocsBackendReader';
import { createLanguageAnalyzers } from '../language';
import { startTestDatabase, TestDatabase } from './testDatabase';

/**
 * Starts `server` on a loopback port as the TechDocs backend (mounted at `basePath`) and returns
 * the real reader pointed at it.
 */
export async function techDocsReaderOn(
  server: http.Server,
  basePath: string,
  options?: TechDocsBackendReaderOptions,
): Promise<TechDocsBackendReader> {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new TechDocsBackendReader(
    mockServices.discovery.mock({
      getBaseUrl: async () => `http://127.0.0.1:${port}${basePath}`,
    }),
    mockServices.auth(),
    options,
  );
}

/**
 * `server` as the TechDocs backend, a database, and ingestion runs of the real Ingester over
 * both (hashing embedder, English analysis); `options` of a run override the Ingester's.
 */
export async function startTechDocsIngestion(
  server: http.Server,
  basePath: string,
  readerOptions?: TechDocsBackendReaderOptions,
): Promise<{
  db: TestDatabase;
  run(
    entities: EntitySource,
    options?: Partial<IngesterOptions>,
    signal?: AbortSignal,
  ): ReturnType<Ingester['run']>;
  /** The Ingester run() uses, for tests that drive it themselves. */
  ingester(
    entities: EntitySource,
    options?: Partial<IngesterOptions>,
  ): Ingester;
  stop(): Promise<void>;
}> {
  const reader = await techDocsReaderOn(server, basePath, readerOptions);
  const db = await startTestDatabase();
  const analyzers = await createLanguageAnalyzers({ languages: ['en'] });
  const ingester = (
    entities: EntitySource,
    options?: Partial<IngesterOptions>,
  ) =>
    new Ingester({
      store: new DatabaseAskDocsStore(db.knex),
      entities,
      techdocs: reader,
      embedder: new HashingEmbedder({ analyzers }),
      analyzers,
      languages: ['en'],
      logger: mockServices.logger.mock(),
      ...options,
    });
  return {
    db,
    ingester,
    run: (entities, options, signal) =>
      ingester(entities, options).run('manual', { signal }),
    async stop() {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
      await db.stop();
    },
  };
}
