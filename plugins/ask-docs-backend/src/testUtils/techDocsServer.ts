import { mockServices } from '@backstage/backend-test-utils';
import http from 'http';
import { AddressInfo } from 'net';
import { TechDocsBackendReader } from '../ingestion/techDocsBackendReader';

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
