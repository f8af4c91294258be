/*
 * An entity the catalog no longer lists is hidden at once and deleted only after
 * `removedEntityDays`: one that comes back meanwhile (a catalog provider's bad hour) is visible
 * again without a page read or embedded anew.
 */
import http from 'http';
import { mockCredentials } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { visibleChunks } from '../database/visibilityPredicate';
import { resolveVisibility } from '../permissions';
import { catalogComponent } from '../testUtils/catalogComponent';
import { fakePermissions } from '../testUtils/fakePermissions';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';
import type { EntitySource } from './sources';

const BASE_PATH = '/api/techdocs';
const GUIDE = 'component:default/guide';
const OTHER = 'component:default/other';

const site = (name: string): Entity =>
  catalogComponent(name, {
    owner: 'group:default/docs',
    type: 'documentation',
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
  });

describe('entities removed from the catalog', () => {
  let ingestion: Awaited<ReturnType<typeof startTechDocsIngestion>>;
  /** Pages read since the last run started, as "<site>/<file>". */
  let reads: string[] = [];
  let listed: Entity[] = [];
  const catalog: EntitySource = {
    async *listEntities() {
      yield* listed;
    },
  };

  beforeAll(async () => {
    const server = http.createServer((req, res) => {
      const match =
        /^\/api\/techdocs\/static\/docs\/default\/component\/([a-z]+)\/(.*)$/.exec(
          req.url ?? '',
        );
      if (!match) return void res.writeHead(404).end();
      const [, name, file] = match;
      if (file === 'techdocs_metadata.json') {
        res.end(
          JSON.stringify({
            site_name: name,
            files: ['index.html'],
            etag: 'commit-1',
            build_timestamp: 1000,
          }),
        );
        return;
      }
      reads.push(`${name}/${file}`);
      res.end(
        `<html><head><title>${name}</title></head><body><article class="md-content__inner">` +
          `<h1 id="top">${name}</h1><p>The ${name} zebrafoo service deploys.</p>` +
          '</article></body></html>',
      );
    });
    ingestion = await startTechDocsIngestion(server, BASE_PATH);
  });
  afterAll(async () => {
    await ingestion?.stop();
  });

  const run = async (removedEntityDays?: number) => {
    reads = [];
    const progress = await ingestion.run(catalog, { removedEntityDays });
    expect(progress.errors).toEqual([]);
    return progress;
  };
  /** Entities whose chunks a user allowed everything sees. */
  const visible = async () => {
    const visibility = await resolveVisibility({
      permissions: fakePermissions({}),
      credentials: mockCredentials.user('user:default/someone'),
    });
    const rows = await visibleChunks(ingestion.db.knex, visibility).distinct(
      'c.entity_ref',
    );
    return rows.map((r: { entity_ref: string }) => r.entity_ref).sort();
  };
  /** Entities with chunks stored, visible or not. */
  const stored = async () =>
    (await ingestion.db.knex('ask_docs_chunks').distinct('entity_ref'))
      .map((r: { entity_ref: string }) => r.entity_ref)
      .sort();
  /** As if the entity had been hidden `days` ago. */
  const hiddenDaysAgo = (ref: string, days: number) =>
    ingestion.db
      .knex('ask_docs_entities')
      .where('entity_ref', ref)
      .update({
        deleted_at: ingestion.db.knex.raw(
          `deleted_at - make_interval(secs => ?)`,
          [days * 86_400],
        ),
      });

  it('hides a removed entity at once, and shows it again unread when it comes back', async () => {
    listed = [site('guide'), site('other')];
    await run(1);
    expect(await visible()).toEqual([GUIDE, OTHER]);

    listed = [site('other')];
    let progress = await run(1);
    expect(progress.chunksDeleted).toBe(0);
    expect(await visible()).toEqual([OTHER]);
    expect(await stored()).toEqual([GUIDE, OTHER]);

    listed = [site('guide'), site('other')];
    progress = await run(1);
    expect(reads).toEqual([]);
    expect(progress.chunksWritten).toBe(0);
    expect(await visible()).toEqual([GUIDE, OTHER]);
  });

  it('deletes it with the first run after the grace period, not before', async () => {
    listed = [site('other')];
    await run(1);
    await hiddenDaysAgo(GUIDE, 0.9);
    await run(1);
    expect(await stored()).toEqual([GUIDE, OTHER]);
    expect(await visible()).toEqual([OTHER]);

    await hiddenDaysAgo(GUIDE, 0.2);
    const progress = await run(1);
    expect(progress.chunksDeleted).toBeGreaterThan(0);
    expect(await stored()).toEqual([OTHER]);
    expect(
      await ingestion.db.knex('ask_docs_entities').where('entity_ref', GUIDE),
    ).toEqual([]);

    // Back after its deletion: read and indexed anew.
    listed = [site('guide'), site('other')];
    await run(1);
    expect(reads).toEqual(['guide/index.html']);
    expect(await visible()).toEqual([GUIDE, OTHER]);
  });

  it('deletes it in the run that misses it when no grace period is set', async () => {
    listed = [site('other')];
    const progress = await run(0);
    expect(progress.chunksDeleted).toBeGreaterThan(0);
    expect(await stored()).toEqual([OTHER]);
    listed = [site('guide'), site('other')];
    await run();
    expect(reads).toEqual(['guide/index.html']);
    listed = [site('other')];
    await run();
    expect(await stored()).toEqual([OTHER]);
  });
});
