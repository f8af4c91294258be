/*
 * TechDocs keeps sites under the lower-cased namespace/kind/name unless
 * `techdocs.legacyUseCaseSensitiveTripletPaths` is set: the cloud publishers lower-case the path
 * themselves, and the local publisher answers a mixed-case path with a 301 to the lower-cased
 * one. The reader follows no redirect (siteConfinement.test.ts), so it must ask for the path the
 * site is kept under. The server here behaves like the local publisher.
 */
import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import http from 'http';
import { AddressInfo } from 'net';
import { catalogComponent } from '../testUtils/catalogComponent';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';
import { TechDocsBackendReader } from './techDocsBackendReader';

const BASE_PATH = '/api/techdocs';
const STATIC = `${BASE_PATH}/static/docs`;
const page = (title: string, body: string) =>
  `<html><head><title>${title}</title></head><body><article class="md-content__inner">` +
  `<h1 id="top">${title}</h1><p>${body}</p></article></body></html>`;
const FILES: Record<string, string> = {
  'techdocs_metadata.json': JSON.stringify({
    site_name: 'My service',
    etag: 'm1',
    files: ['index.html', 'ops/index.html'],
  }),
  'index.html': page('My service', 'How the zebrafoo service is run.'),
  'ops/index.html': page('Operations', 'Restart zebrafoo with shipctl.'),
};

const entity: Entity = catalogComponent('MyService', {
  owner: 'group:default/everyone',
  type: 'service',
  annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
});
entity.metadata.namespace = 'Payments';

/** Whether the publisher runs with legacyUseCaseSensitiveTripletPaths. */
let legacy = false;
const requests: string[] = [];

/** LocalPublish.docsRouter: mixed case is redirected, the site is kept under one spelling. */
function startServer() {
  return http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://x');
    requests.push(pathname);
    const [namespace, kind, name, ...rest] = pathname
      .slice(STATIC.length + 1)
      .split('/');
    const triplet = [namespace, kind, name].join('/');
    const lower = triplet.toLowerCase();
    if (!legacy && triplet !== lower) {
      res
        .writeHead(301, { location: `${STATIC}/${lower}/${rest.join('/')}` })
        .end();
      return;
    }
    const kept = legacy ? 'Payments/Component/MyService' : lower;
    const file = FILES[rest.join('/')];
    if (triplet !== kept || file === undefined) {
      res.writeHead(404).end('File Not Found');
    } else {
      res.writeHead(200).end(file);
    }
  });
}

describe('entities whose names are not lower-case', () => {
  let ingestion: Awaited<ReturnType<typeof startTechDocsIngestion>>;
  let server: http.Server;

  beforeAll(async () => {
    server = startServer();
    ingestion = await startTechDocsIngestion(server, BASE_PATH);
  });
  afterAll(async () => {
    await ingestion?.stop();
  });

  it('reads the site under the lower-cased path TechDocs keeps it at', async () => {
    legacy = false;
    requests.length = 0;
    const progress = await ingestion.run({
      async *listEntities() {
        yield entity;
      },
    });
    expect(progress.errors).toEqual([]);
    const documents = await ingestion.db
      .knex('ask_docs_documents')
      .where({ entity_ref: 'component:payments/myservice' })
      .where({ source_kind: 'techdocs' })
      .orderBy('page_path')
      .select('page_path', 'url');
    // Citations name the site as TechDocs keeps it, lower-cased.
    expect(documents).toEqual([
      { page_path: 'index.html', url: '/docs/payments/component/myservice/' },
      {
        page_path: 'ops/index.html',
        url: '/docs/payments/component/myservice/ops/',
      },
    ]);
    expect([...requests].sort()).toEqual([
      `${STATIC}/payments/component/myservice/index.html`,
      `${STATIC}/payments/component/myservice/ops/index.html`,
      `${STATIC}/payments/component/myservice/techdocs_metadata.json`,
    ]);
  });

  it('keeps the entity spelling with legacyUseCaseSensitiveTripletPaths', async () => {
    legacy = true;
    requests.length = 0;
    const { port } = server.address() as AddressInfo;
    const reader = new TechDocsBackendReader(
      mockServices.discovery.mock({
        getBaseUrl: async () => `http://127.0.0.1:${port}${BASE_PATH}`,
      }),
      mockServices.auth(),
      { legacyUseCaseSensitiveTripletPaths: true },
    );
    const site = await reader.getSite(entity);
    expect(site?.pages).toEqual(['index.html', 'ops/index.html']);
    await expect(reader.getPage(entity, 'ops/index.html')).resolves.toContain(
      'shipctl',
    );
    expect(requests).toEqual([
      `${STATIC}/Payments/Component/MyService/techdocs_metadata.json`,
      `${STATIC}/Payments/Component/MyService/ops/index.html`,
    ]);
    // Its reader asks the backend for the path its URL names: citations keep the spelling too,
    // also for the pages indexed before the setting changed, although their text did not.
    const progress = await ingestion.run(
      {
        async *listEntities() {
          yield entity;
        },
      },
      { techdocs: reader, legacyUseCaseSensitiveTripletPaths: true },
    );
    expect(progress.errors).toEqual([]);
    const urls = await ingestion.db
      .knex('ask_docs_documents')
      .where({ entity_ref: 'component:payments/myservice' })
      .where({ source_kind: 'techdocs' })
      .orderBy('page_path')
      .pluck('url');
    expect(urls).toEqual([
      '/docs/Payments/Component/MyService/',
      '/docs/Payments/Component/MyService/ops/',
    ]);
  });
});
