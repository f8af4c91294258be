import { mockServices } from '@backstage/backend-test-utils';
import http from 'http';
import { AddressInfo } from 'net';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { HashingEmbedder } from '../embedding';
import { Ingester } from '../ingestion/Ingester';
import { EntitySource } from '../ingestion/sources';
import { TechDocsBackendReader } from '../ingestion/techDocsBackendReader';
import { createLanguageAnalyzers } from '../language';
import { startTestDatabase, TestDatabase } from './testDatabase';

/**
 * Starts `server` on a loopback port as the TechDocs backend (mounted at `basePath`) and returns
 * the real reader pointed at it.
 */
export async function techDocsReaderOn(
  server: http.Server,
  basePath: string,
): Promise<TechDocsBackendReader> {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new TechDocsBackendReader(
    mockServices.discovery.mock({
      getBaseUrl: async () => `http://127.0.0.1:${port}${basePath}`,
    }),
    mockServices.auth(),
  );
}

/**
 * `server` as the TechDocs backend, a database, and ingestion runs of the real Ingester over
 * both (hashing embedder, English analysis).
 */
export async function startTechDocsIngestion(
  server: http.Server,
  basePath: string,
): Promise<{
  db: TestDatabase;
  run(entities: EntitySource): ReturnType<Ingester['run']>;
  stop(): Promise<void>;
}> {
  const reader = await techDocsReaderOn(server, basePath);
  const db = await startTestDatabase();
  const analyzers = await createLanguageAnalyzers({ languages: ['en'] });
  return {
    db,
    run: entities =>
      new Ingester({
        store: new DatabaseAskDocsStore(db.knex),
        entities,
        techdocs: reader,
        embedder: new HashingEmbedder({ analyzers }),
        analyzers,
        languages: ['en'],
        logger: mockServices.logger.mock(),
      }).run('manual'),
    async stop() {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
      await db.stop();
    },
  };
}
