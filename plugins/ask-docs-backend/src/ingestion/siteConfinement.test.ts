/*
 * A TechDocs site names its own pages (techdocs_metadata.json `files`, the MkDocs search index),
 * so a site must not be able to name another entity's pages: they would be indexed under its
 * entity, with its visibility. Here the real TechDocsBackendReader reads two public sites whose
 * page lists point into a restricted site, from a static server that resolves '..' (and, like a
 * Windows host, backslashes) the way a plain static file server does, and the real Ingester
 * writes into Postgres.
 */
import { mockServices } from '@backstage/backend-test-utils';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { HashingEmbedder } from '../embedding';
import { Analyzers, createLanguageAnalyzers } from '../language';
import { catalogComponent } from '../testUtils/catalogComponent';
import { techDocsReaderOn } from '../testUtils/techDocsServer';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { entityRow } from './entityRow';
import { Ingester } from './Ingester';
import { documentIdFor } from './parsing';
import { printablePagePath, RefusedPagePathError } from './sitePagePath';
import { TechDocsBackendReader } from './techDocsBackendReader';

const SECRET = 'ZEBRA-HORIZON-4471';
const RUNBOOK = 'default/component/restricted/runbook/index.html';
const BASE_PATH = '/api/techdocs';

const page = (title: string, body: string) =>
  `<html><head><title>${title}</title></head><body><div class="md-content">` +
  `<article class="md-content__inner md-typeset"><h1 id="top">${title}</h1>${body}</article>` +
  '</div></body></html>';

const component = (name: string, owner: string): Entity =>
  catalogComponent(name, {
    owner,
    type: 'documentation',
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
  });

const restricted = component('restricted', 'group:default/secops');
// Lists its pages in techdocs_metadata.json `files`.
const handbook = component('handbook', 'group:default/everyone');
// Lists no files; its search index names the pages.
const wiki = component('wiki', 'group:default/everyone');
const ref = (e: Entity) => stringifyEntityRef(e);

const HANDBOOK_PAGES = [
  'index.html',
  'guides/setup/index.html',
  'návody/úvod/index.html',
];
const HANDBOOK_HOSTILE = [
  '../restricted/runbook/index.html',
  'guides/../../restricted/runbook/index.html',
  '..\\restricted\\runbook\\index.html',
  '%2e%2e/restricted/runbook/index.html',
  '%2E./restricted/runbook/index.html',
  '/api/techdocs/static/docs/default/component/restricted/runbook/index.html',
  // The server redirects this one into the restricted site.
  'moved/index.html',
];
const WIKI_PAGES = ['index.html', 'faq/index.html', 'návod/index.html'];
const WIKI_LOCATIONS = ['', '#intro', 'faq/', 'faq/#billing', 'n%C3%A1vod/'];
const WIKI_HOSTILE_LOCATIONS = [
  '../restricted/runbook/',
  '%2e%2e/restricted/runbook/',
  '%252e%252e/restricted/runbook/',
  '..%5crestricted%5crunbook%5cindex.html',
  '..%2frestricted%2frunbook%2findex.html',
  'faq/../../restricted/runbook/#steps',
];
// The pages those name, once each: MkDocs URLs are decoded once, so several name the same path.
const WIKI_HOSTILE_PAGES = [
  '../restricted/runbook/index.html',
  '%2e%2e/restricted/runbook/index.html',
  '..\\restricted\\runbook\\index.html',
  'faq/../../restricted/runbook/index.html',
];

function writeSite(root: string, name: string, files: Record<string, string>) {
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(root, 'default', 'component', name, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
}

/** Serves `root` under BASE_PATH/static/docs like a plain static server; counts served files. */
function startStaticServer(root: string) {
  const served = new Map<string, number>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    let file: string;
    try {
      const decoded = decodeURIComponent(
        new URL(req.url ?? '/', 'http://x').pathname,
      );
      file = path.posix.normalize(decoded.replace(/\\/g, '/'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const prefix = `${BASE_PATH}/static/docs/`;
    if (!file.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    const relative = file.slice(prefix.length);
    if (relative === 'default/component/handbook/moved/index.html') {
      res.writeHead(302, { location: `${prefix}${RUNBOOK}` }).end();
      return;
    }
    const full = path.join(root, relative);
    if (!fs.existsSync(full) || !fs.statSync(full).isFile()) {
      res.writeHead(404).end();
      return;
    }
    served.set(relative, (served.get(relative) ?? 0) + 1);
    const type = full.endsWith('.json')
      ? 'application/json'
      : 'text/html; charset=utf-8';
    res.writeHead(200, { 'content-type': type }).end(fs.readFileSync(full));
  });
  return { server, served, requests };
}

describe('TechDocs page paths stay inside their entity site', () => {
  let db: TestDatabase;
  let root: string;
  let analyzers: Analyzers;
  let embedder: HashingEmbedder;
  let reader: TechDocsBackendReader;
  let site: ReturnType<typeof startStaticServer>;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-docs-confinement-'));
    writeSite(root, 'restricted', {
      'techdocs_metadata.json': JSON.stringify({
        site_name: 'Restricted',
        etag: 'r1',
        files: ['index.html', 'runbook/index.html'],
      }),
      'index.html': page(
        'Security operations',
        '<p>Internal security operations.</p>',
      ),
      'runbook/index.html': page(
        'Break-glass runbook',
        `<p>The break-glass administrator password is ${SECRET}; rotate it after use.</p>`,
      ),
    });
    writeSite(root, 'handbook', {
      'techdocs_metadata.json': JSON.stringify({
        site_name: 'Handbook',
        etag: 'h1',
        files: [...HANDBOOK_PAGES, ...HANDBOOK_HOSTILE],
      }),
      'index.html': page('Handbook', '<p>Welcome to the public handbook.</p>'),
      'guides/setup/index.html': page(
        'Setup guide',
        '<p>Install the command line tools.</p>',
      ),
      'návody/úvod/index.html': page(
        'Úvod',
        '<p>Úvodní stránka návodů pro kolegy.</p>',
      ),
    });
    writeSite(root, 'wiki', {
      'techdocs_metadata.json': JSON.stringify({
        site_name: 'Wiki',
        etag: 'w1',
      }),
      'search/search_index.json': JSON.stringify({
        docs: [...WIKI_LOCATIONS, ...WIKI_HOSTILE_LOCATIONS].map(location => ({
          location,
        })),
      }),
      'index.html': page('Wiki', '<p>The public wiki home page.</p>'),
      'faq/index.html': page(
        'FAQ',
        '<p>Frequently asked questions about billing.</p>',
      ),
      'návod/index.html': page(
        'Návod',
        '<p>Návod pro nové uživatele wiki.</p>',
      ),
    });
    site = startStaticServer(root);
    reader = await techDocsReaderOn(site.server, BASE_PATH);

    db = await startTestDatabase();
    analyzers = await createLanguageAnalyzers({ languages: ['en'] });
    embedder = new HashingEmbedder({ analyzers });
  });

  afterAll(async () => {
    if (site) {
      site.server.closeAllConnections();
      await new Promise(resolve => site.server.close(resolve));
    }
    await db?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  /** What an older version could have indexed for the handbook from '../restricted/...'. */
  async function seedLeakedDocument(store: DatabaseAskDocsStore) {
    const pagePath = HANDBOOK_HOSTILE[0];
    const documentId = documentIdFor(ref(handbook), 'techdocs', pagePath);
    const model = { modelId: embedder.modelId, dimension: embedder.dimension };
    await store.registerModel({ ...model, kind: embedder.kind });
    await store.upsertEntity(entityRow(handbook));
    const text = `The break-glass administrator password is ${SECRET}.`;
    const doc = {
      documentId,
      entityRef: ref(handbook),
      sourceKind: 'techdocs' as const,
      pagePath,
      title: 'Break-glass runbook',
      url: '/docs/default/component/handbook/../restricted/runbook/',
      lang: 'en',
      revision: 'h0',
      contentHash: 'leaked',
      textLength: text.length,
    };
    const chunk = {
      chunkId: 'leaked-chunk',
      ordinal: 0,
      title: doc.title,
      sectionPath: doc.title,
      anchor: '',
      charStart: 0,
      charEnd: text.length,
      text,
      contentHash: 'leaked-chunk-hash',
      lang: 'en',
      termCount: 0,
      terms: [],
    };
    await store.replaceDocument(doc, [chunk], new Map(), model);
  }

  it('refuses a path out of the site in the reader itself, without a request', async () => {
    const before = site.requests.length;
    for (const pagePath of HANDBOOK_HOSTILE.slice(0, 4)) {
      await expect(reader.getPage(handbook, pagePath)).rejects.toBeInstanceOf(
        RefusedPagePathError,
      );
    }
    expect(site.requests.length).toBe(before);
    // A redirect is not followed, even to a path the server would serve.
    await expect(reader.getPage(handbook, 'moved/index.html')).rejects.toThrow(
      /redirected.*not followed/,
    );
    expect(site.served.get(RUNBOOK) ?? 0).toBe(0);
    // The entity's own pages are read.
    const own = reader.getPage(handbook, 'návody/úvod/index.html');
    await expect(own).resolves.toContain('Úvodní');
  });

  it('indexes each page under the entity whose site it came from, nothing else', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    await seedLeakedDocument(store);
    site.served.clear();
    const logger = mockServices.logger.mock();
    const progress = await new Ingester({
      store,
      entities: {
        async *listEntities() {
          yield* [restricted, handbook, wiki];
        },
      },
      techdocs: reader,
      embedder,
      analyzers,
      languages: ['en'],
      logger,
    }).run('manual');

    // The secret is stored only under the restricted entity, on its own runbook page.
    const secretChunks = await db
      .knex('ask_docs_chunks as c')
      .join('ask_docs_documents as d', 'd.document_id', 'c.document_id')
      .where('c.text', 'like', `%${SECRET}%`)
      .select(
        'c.entity_ref as chunkEntity',
        'd.entity_ref as docEntity',
        'd.page_path',
        'd.url',
      );
    expect(secretChunks).toEqual([
      {
        chunkEntity: ref(restricted),
        docEntity: ref(restricted),
        page_path: 'runbook/index.html',
        url: '/docs/default/component/restricted/runbook/',
      },
    ]);
    const publicSecrets = await db
      .knex('ask_docs_chunks')
      .whereIn('entity_ref', [ref(handbook), ref(wiki)])
      .andWhere(q =>
        q
          .where('text', 'like', `%${SECRET}%`)
          .orWhere('text', 'ilike', '%glass%'),
      );
    expect(publicSecrets).toEqual([]);
    // It was fetched once: for its own entity.
    expect(site.served.get(RUNBOOK)).toBe(1);

    // The public sites' own pages were indexed under them; the seeded leak is gone.
    const pagesOf = async (e: Entity) =>
      (
        await db
          .knex('ask_docs_documents')
          .where({ entity_ref: ref(e), source_kind: 'techdocs' })
          .pluck('page_path')
      ).sort();
    expect(await pagesOf(handbook)).toEqual([...HANDBOOK_PAGES].sort());
    expect(await pagesOf(wiki)).toEqual([...WIKI_PAGES].sort());
    expect(await pagesOf(restricted)).toEqual([
      'index.html',
      'runbook/index.html',
    ]);
    expect(
      await db.knex('ask_docs_chunks').where('chunk_id', 'leaked-chunk'),
    ).toEqual([]);

    // Every hostile path was refused, recorded on the run for its entity and logged by name.
    const refusedOf = (e: Entity) =>
      progress.errors.filter(
        x =>
          x.entityRef === ref(e) && x.message.startsWith('refused page path'),
      );
    const pages = (e: Entity) =>
      refusedOf(e)
        .map(x => x.page)
        .sort();
    const moved = 'moved/index.html';
    expect(pages(handbook)).toEqual(
      HANDBOOK_HOSTILE.filter(p => p !== moved)
        .map(printablePagePath)
        .sort(),
    );
    // The redirect is a failed read of that page, not a bad path (siteOutage.test.ts).
    expect(
      progress.errors.filter(x => x.page === moved).map(x => x.message),
    ).toEqual([expect.stringMatching(/redirected .* not followed/)]);
    expect(pages(wiki)).toEqual(
      WIKI_HOSTILE_PAGES.map(printablePagePath).sort(),
    );
    expect(progress.errors).toHaveLength(
      HANDBOOK_HOSTILE.length + WIKI_HOSTILE_PAGES.length,
    );
    const warnings = logger.warn.mock.calls.map(([message]) => String(message));
    for (const e of [handbook, wiki]) {
      for (const refused of refusedOf(e)) {
        const named = `${ref(e)}: refused page path "${refused.page}"`;
        expect(warnings).toContainEqual(expect.stringContaining(named));
      }
    }
    expect(warnings.join('\n')).toContain(
      '..\\\\restricted\\\\runbook\\\\index.html',
    );

    // The run itself succeeded and its record holds the refusals.
    const run = await store.latestRun();
    expect(run?.status).toBe('succeeded');
    expect(run?.errors).toHaveLength(progress.errors.length);
  });
});
