/*
 * A TechDocs outage must not empty the index. The TechDocs publishers answer 404 to storage
 * errors too, a proxy may answer with a login redirect, and a site's page list may be unreadable
 * for a while: in each case the pages indexed before stay, and the run records why. Only an entity
 * that no longer names a site loses its pages. The real TechDocsBackendReader reads a static
 * server whose failures the tests switch on; the real Ingester writes into Postgres.
 */
import { Entity } from '@backstage/catalog-model';
import http from 'http';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { catalogComponent } from '../testUtils/catalogComponent';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';

const BASE_PATH = '/api/techdocs';
const page = (title: string, body: string) =>
  `<html><head><title>${title}</title></head><body><article class="md-content__inner">` +
  `<h1 id="top">${title}</h1><p>${body}</p></article></body></html>`;

const withDocs = (name: string, docs = true): Entity =>
  catalogComponent(name, {
    owner: 'group:default/everyone',
    type: 'documentation',
    annotations: docs ? { 'backstage.io/techdocs-ref': 'dir:.' } : {},
  });

/** Files per site; `files` listed in the metadata or, for `wiki`, in the search index. */
const SITES: Record<string, Record<string, string>> = {
  guide: {
    'techdocs_metadata.json': JSON.stringify({
      site_name: 'Guide',
      etag: 'g1',
      files: ['index.html', 'ops/index.html'],
    }),
    'index.html': page('Guide', 'How the zebrafoo guide is organised.'),
    'ops/index.html': page('Operations', 'Restart zebrafoo with shipctl.'),
  },
  wiki: {
    'techdocs_metadata.json': JSON.stringify({ site_name: 'Wiki', etag: 'w1' }),
    'search/search_index.json': JSON.stringify({
      docs: [{ location: '' }, { location: 'faq/' }],
    }),
    'index.html': page('Wiki', 'The quokkabar wiki home.'),
    'faq/index.html': page('FAQ', 'Quokkabar billing questions.'),
  },
  // An old publisher's metadata without `files`, and no search index: no pages to list.
  nolist: {
    'techdocs_metadata.json': JSON.stringify({ site_name: 'No list' }),
    'index.html': page('No list', 'Never indexed.'),
  },
};

/** What the server does instead of serving a file, by site-relative path ('*': every file). */
let failures: Record<
  string,
  'storage-404' | 'redirect' | 'unavailable' | 'no-pages'
> = {};

function startServer() {
  return http.createServer((req, res) => {
    const prefix = `${BASE_PATH}/static/docs/default/component/`;
    const url = decodeURIComponent(
      new URL(req.url ?? '/', 'http://x').pathname,
    );
    const [site, ...rest] = url.slice(prefix.length).split('/');
    const file = rest.join('/');
    requested.push(`${site}/${file}`);
    const failure = failures[`${site}/${file}`] ?? failures[`${site}/*`];
    if (failure === 'redirect') {
      res.writeHead(302, { location: '/login' }).end();
    } else if (failure === 'unavailable') {
      res.writeHead(503).end();
    } else if (failure === 'no-pages') {
      res.writeHead(200).end(JSON.stringify({ docs: [] }));
    } else if (failure === 'storage-404' || !SITES[site]?.[file]) {
      res.writeHead(404).end('File Not Found');
    } else if (file === 'techdocs_metadata.json') {
      // Every run reads a new build: the outages below are of pages, which a run does not
      // read again for the build it ingested whole (unchangedSites.test.ts).
      builds += 1;
      const metadata = JSON.parse(SITES[site][file]);
      res
        .writeHead(200)
        .end(JSON.stringify({ ...metadata, build_timestamp: builds }));
    } else {
      res.writeHead(200).end(SITES[site][file]);
    }
  });
}
let builds = 0;
/** Every file asked for, as site/path. */
let requested: string[] = [];

describe('a TechDocs outage keeps what was indexed', () => {
  let ingestion: Awaited<ReturnType<typeof startTechDocsIngestion>>;
  let catalog: Entity[];

  beforeAll(async () => {
    ingestion = await startTechDocsIngestion(startServer(), BASE_PATH);
  });
  afterAll(async () => {
    await ingestion?.stop();
  });

  /** When set, the catalog listing fails after the entities (a 503 on its next page). */
  let listingFails = false;
  const run = (options?: { concurrency?: number }) =>
    ingestion.run(
      {
        async *listEntities() {
          yield* catalog;
          if (listingFails) throw new Error('catalog returned 503');
        },
      },
      options,
    );
  const pagesOf = async (name: string) =>
    (
      await ingestion.db
        .knex('ask_docs_documents')
        .where({
          entity_ref: `component:default/${name}`,
          source_kind: 'techdocs',
        })
        .orderBy('page_path')
        .pluck('page_path')
    ).map(String);
  const errorsFor = (progress: { errors: any[] }, name: string) =>
    progress.errors
      .filter(e => e.entityRef === `component:default/${name}`)
      .map(e => `${e.page ?? ''} ${e.message}`);

  it('keeps the pages through storage errors, redirects and an unreadable page list', async () => {
    catalog = [
      withDocs('guide'),
      withDocs('wiki'),
      withDocs('unbuilt'),
      withDocs('nolist'),
    ];
    failures = {};
    let progress = await run();
    // Docs never built, or a site that lists no pages, where nothing was indexed: no error.
    expect(progress.errors).toEqual([]);
    expect(await pagesOf('nolist')).toEqual([]);
    expect(await pagesOf('guide')).toEqual(['index.html', 'ops/index.html']);
    expect(await pagesOf('wiki')).toEqual(['faq/index.html', 'index.html']);

    // The storage fails: every file of the guide is a 404; the wiki's page list is a 503.
    failures = {
      'guide/*': 'storage-404',
      'wiki/search/search_index.json': 'unavailable',
    };
    progress = await run();
    expect(await pagesOf('guide')).toEqual(['index.html', 'ops/index.html']);
    expect(await pagesOf('wiki')).toEqual(['faq/index.html', 'index.html']);
    expect(errorsFor(progress, 'guide')).toEqual([
      expect.stringMatching(
        /not found \(404.*the pages indexed before are kept/,
      ),
    ]);
    expect(errorsFor(progress, 'wiki')).toEqual([expect.stringMatching(/503/)]);
    // Docs never built are no error: nothing was indexed to keep.
    expect(errorsFor(progress, 'unbuilt')).toEqual([]);

    // A broken build whose search index names no page: an error, and the pages stay.
    failures = { 'wiki/search/search_index.json': 'no-pages' };
    progress = await run();
    expect(await pagesOf('wiki')).toEqual(['faq/index.html', 'index.html']);
    expect(errorsFor(progress, 'wiki')).toEqual([
      expect.stringMatching(
        /lists no pages.*the pages indexed before are kept/,
      ),
    ]);

    // A proxy answers one page with a login redirect: not followed, the page stays.
    failures = { 'guide/ops/index.html': 'redirect' };
    progress = await run();
    expect(await pagesOf('guide')).toEqual(['index.html', 'ops/index.html']);
    expect(errorsFor(progress, 'guide')).toEqual([
      expect.stringMatching(
        /ops\/index\.html .*redirected .* to \/login, not followed/,
      ),
    ]);
  });

  it('drops the pages of an entity that no longer names a site', async () => {
    catalog = [withDocs('guide')];
    failures = {};
    await run();
    expect(await pagesOf('guide')).toHaveLength(2);
    catalog = [withDocs('guide', false)];
    const progress = await run();
    expect(progress.errors).toEqual([]);
    expect(await pagesOf('guide')).toEqual([]);
  });

  it('reads no more of a site whose first pages all fail, keeping its pages', async () => {
    const files = Array.from({ length: 40 }, (_, i) => `p${i}/index.html`);
    SITES.down = {
      'techdocs_metadata.json': JSON.stringify({ site_name: 'Down', files }),
      ...Object.fromEntries(files.map(f => [f, page(f, `Zebrafoo ${f}.`)])),
    };
    catalog = [withDocs('down')];
    failures = {};
    try {
      expect((await run()).errors).toEqual([]);
      expect(await pagesOf('down')).toHaveLength(40);
      failures = Object.fromEntries(
        files.map(f => [`down/${f}`, 'unavailable' as const]),
      );
      requested = [];
      const progress = await run();
      // The metadata, then the first failures (and those already under way: 4 at a time).
      const pagesAsked = requested.filter(r => r.endsWith('index.html'));
      expect(pagesAsked.length).toBeGreaterThanOrEqual(5);
      expect(pagesAsked.length).toBeLessThanOrEqual(8);
      expect(errorsFor(progress, 'down').at(-1)).toMatch(
        new RegExp(
          `${pagesAsked.length} of its pages failed before one was read, so its other ` +
            `${
              40 - pagesAsked.length
            } were not read; the pages indexed before are kept`,
        ),
      );
      expect(await pagesOf('down')).toHaveLength(40);
      // One page read makes it no outage: the other pages are tried, one by one.
      failures = Object.fromEntries(
        files.slice(1).map(f => [`down/${f}`, 'unavailable' as const]),
      );
      requested = [];
      await run({ concurrency: 1 });
      expect(requested.filter(r => r.endsWith('index.html'))).toHaveLength(40);
    } finally {
      delete SITES.down;
    }
  });

  it('keeps the reason a run aborted after more page errors than a record holds', async () => {
    // The first page is read (one at a time, it comes first), so the site is no outage and
    // every other page is tried and fails.
    const files = Array.from({ length: 251 }, (_, i) => `p${i}/index.html`);
    SITES.big = {
      'techdocs_metadata.json': JSON.stringify({ site_name: 'Big', files }),
      [files[0]]: page('Big', 'The first page of a big site.'),
    };
    catalog = [withDocs('big')];
    failures = Object.fromEntries(
      files.slice(1).map(f => [`big/${f}`, 'unavailable' as const]),
    );
    listingFails = true;
    try {
      const progress = await run({ concurrency: 1 });
      expect(progress.errors).toHaveLength(251);
    } finally {
      listingFails = false;
      delete SITES.big;
    }
    const record = await new DatabaseAskDocsStore(
      ingestion.db.knex,
    ).latestRun();
    expect(record?.status).toBe('failed');
    expect(record?.errors).toHaveLength(200);
    expect(record?.errors[0].message).toMatch(/503/);
    expect(record?.errors[198].message).toBe('52 more errors not stored');
    expect(record?.errors[199].message).toBe(
      'run aborted while listing entities: catalog returned 503',
    );
  });
});
