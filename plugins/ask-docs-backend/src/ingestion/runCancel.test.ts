/*
 * The scheduler aborts a task's signal when its timeout passes, the backend shuts down or an admin
 * cancels it. A run started with that signal stops before its next entity and is recorded as
 * failed; nothing it did not reach is deleted, and a page list cut short deletes no page.
 */
import { Entity } from '@backstage/catalog-model';
import http from 'http';
import { catalogComponent } from '../testUtils/catalogComponent';
import { mockServices } from '@backstage/backend-test-utils';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';
import { scheduledIngestion } from './Ingester';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { AskDocsAuthorizer } from '../service/authorization';
import { IngestionController } from '../service/IngestionController';
import { fakePermissions } from '../testUtils/fakePermissions';

const BASE_PATH = '/api/techdocs';
const page = (title: string) =>
  `<html><head><title>${title}</title></head><body><article class="md-content__inner">` +
  `<h1 id="top">${title}</h1><p>How ${title} works.</p></article></body></html>`;
const PAGES = ['index.html', 'a/index.html', 'b/index.html', 'c/index.html'];

/** Called with the path of every page the server serves (before it answers). */
let onServe: (path: string) => void = () => {};
let builds = 0;

function startServer() {
  return http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = path.replace(/^.*\/component\/[^/]+\//, '');
    if (file === 'techdocs_metadata.json') {
      // A new build each time: the runs below read pages (unchangedSites.test.ts).
      builds += 1;
      res.end(
        JSON.stringify({
          site_name: 'S',
          etag: 'e',
          build_timestamp: builds,
          files: PAGES,
        }),
      );
    } else if (PAGES.includes(file)) {
      onServe(path);
      res.end(page(path.split('/component/')[1]));
    } else res.writeHead(404).end();
  });
}

const withDocs = (name: string): Entity =>
  catalogComponent(name, {
    owner: 'group:default/everyone',
    type: 'documentation',
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
  });

describe('a run stops when the scheduler aborts its signal', () => {
  let ingestion: Awaited<ReturnType<typeof startTechDocsIngestion>>;
  beforeAll(async () => {
    ingestion = await startTechDocsIngestion(startServer(), BASE_PATH, {});
  });
  afterAll(async () => {
    await ingestion?.stop();
  });

  const documents = async () =>
    (
      await ingestion.db
        .knex('ask_docs_documents')
        .select('entity_ref', 'page_path')
        .orderBy(['entity_ref', 'page_path'])
    ).map(r => `${r.entity_ref} ${r.page_path}`);
  const lastRun = () =>
    ingestion.db.knex('ask_docs_ingestion_runs').orderBy('id', 'desc').first();
  const catalog = (entities: Entity[]) => ({
    async *listEntities() {
      yield* entities;
    },
  });

  it('stops before the next entity, deletes nothing and records a failed run', async () => {
    onServe = () => {};
    const all = ['one', 'two', 'three'].map(withDocs);
    expect((await ingestion.run(catalog(all))).errors).toEqual([]);
    const before = await documents();
    expect(before).toHaveLength(3 * (PAGES.length + 1));

    // The next run lists only the first entity, and is aborted while reading its pages.
    const controller = new AbortController();
    const served: string[] = [];
    onServe = path => {
      served.push(path);
      controller.abort();
    };
    const listed: string[] = [];
    const progress = await ingestion.run(
      {
        async *listEntities() {
          for (const e of [withDocs('one')]) {
            listed.push(e.metadata.name);
            yield e;
          }
        },
      },
      { concurrency: 1 },
      controller.signal,
    );
    // Aborted after its first page: the others were not read.
    expect(served).toHaveLength(1);
    expect(progress.errors).toEqual([
      {
        message: expect.stringMatching(
          /^run aborted: ingestion run \d+ was cancelled \(the scheduler's timeout/,
        ),
      },
    ]);
    // "two" and "three" were not listed, and the pages of "one" not read stay: nothing deleted.
    expect(await documents()).toEqual(before);
    const run = await lastRun();
    expect(run.status).toBe('failed');
  });

  it('stops before the first entity when aborted already, and a later run goes on', async () => {
    onServe = () => {};
    const controller = new AbortController();
    controller.abort();
    const progress = await ingestion.run(
      catalog([withDocs('four')]),
      {},
      controller.signal,
    );
    expect(progress.entitiesDone).toBe(0);
    expect(progress.errors).toEqual([
      { message: expect.stringMatching(/while listing entities: .*cancelled/) },
    ]);
    expect(await documents()).not.toContain('component:default/four ');
    expect((await lastRun()).status).toBe('failed');

    // Without an aborted signal the same run succeeds, and deletes the entities not listed.
    const done = await ingestion.run(
      catalog([withDocs('four')]),
      {},
      new AbortController().signal,
    );
    expect(done.errors).toEqual([]);
    expect((await lastRun()).status).toBe('succeeded');
    expect(await documents()).toEqual(
      ['', ...PAGES].sort().map(p => `component:default/four ${p}`),
    );
  });

  it('keeps the index when the catalog lists no entities, records no attribute sync', async () => {
    onServe = () => {};
    const both = [withDocs('six'), withDocs('seven')];
    expect((await ingestion.run(catalog(both))).errors).toEqual([]);
    const before = await documents();
    expect(before).toContain('component:default/seven index.html');
    const synced = () =>
      ingestion.db.knex('ask_docs_visibility_sync').first('last_success_at');
    const lastSync = await synced();

    const empty = await ingestion.run(catalog([]));
    expect(empty.errors).toEqual([
      {
        message: expect.stringMatching(
          /^the catalog listed no entities: the 2 indexed entities are kept/,
        ),
      },
    ]);
    expect(await documents()).toEqual(before);
    expect(await synced()).toEqual(lastSync);

    // A listing that names one entity is believed: the other leaves.
    const one = await ingestion.run(catalog([withDocs('six')]));
    expect(one.errors).toEqual([]);
    expect(one.chunksDeleted).toBeGreaterThan(0);
    expect(
      (await documents()).every(d => d.startsWith('component:default/six ')),
    ).toBe(true);
  });

  it("fails the scheduler's task when the run fails, not when it finishes", async () => {
    onServe = () => {};
    const task = scheduledIngestion(
      ingestion.ingester(catalog([withDocs('five')])),
      mockServices.logger.mock(),
    );
    const aborted = new AbortController();
    aborted.abort();
    await expect(task(aborted.signal)).rejects.toThrow(
      /ingestion run failed: .*cancelled/,
    );
    expect((await lastRun()).status).toBe('failed');
    // A run that finishes succeeds, as entity errors (on its record) do not stop it.
    await expect(task(new AbortController().signal)).resolves.toBeUndefined();
    expect((await lastRun()).status).toBe('succeeded');
  });

  it('stops any run when the backend stops, records it while it can, starts none', async () => {
    const ingester = ingestion.ingester(catalog([withDocs('four')]), {
      concurrency: 1,
    });
    let stopped: Promise<void> | undefined;
    onServe = () => {
      stopped ??= ingester.stop();
    };
    // A manual run: no scheduler signal, stopped all the same.
    const progress = await ingester.run('manual');
    await stopped;
    expect(progress.errors).toEqual([
      { message: expect.stringMatching(/cancelled .*the backend stopping/) },
    ]);
    expect((await lastRun()).status).toBe('failed');
    await expect(ingester.run('manual')).rejects.toThrow(/shutting down/);
    expect((await lastRun()).status).toBe('failed');
    // A manual start during shutdown is refused, not reported as the last run "started".
    await expect(ingester.currentRun()).resolves.toBeUndefined();
    const controller = new IngestionController(
      new DatabaseAskDocsStore(ingestion.db.knex),
      ingester,
      new AskDocsAuthorizer(fakePermissions({})),
    );
    await expect(controller.start()).rejects.toThrow(/shutting down/);
  });
});
