/*
 * An entity the catalog no longer lists is hidden at once and deleted only after
 * `removedEntityDays`: one that comes back meanwhile (a catalog provider's bad hour) is visible
 * again without a page read or embedded anew. One registered again under the same ref (another
 * uid) is another entity: the old one's content is deleted, never shown under the new one.
 */
import http from 'http';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { visibleChunks } from '../database/visibilityPredicate';
import { resolveVisibility } from '../permissions';
import { catalogComponent } from '../testUtils/catalogComponent';
import { cond, fakePermissions } from '../testUtils/fakePermissions';
import { startTechDocsIngestion } from '../testUtils/techDocsServer';
import { EntityAttributeSync } from './attributeSync';
import type { EntitySource } from './sources';

const BASE_PATH = '/api/techdocs';
const GUIDE = 'component:default/guide';
const OTHER = 'component:default/other';

const site = (name: string, uid?: string, owner = 'group:default/docs') => {
  const entity: Entity = catalogComponent(name, {
    owner,
    type: 'documentation',
    annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
  });
  if (uid) entity.metadata.uid = uid;
  return entity;
};

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
  /** Entities whose chunks a user sees: allowed everything, or what `owner` owns. */
  const visible = async (owner?: string) => {
    const visibility = await resolveVisibility({
      permissions: fakePermissions(
        owner
          ? {
              catalog: {
                conditions: cond('catalog-entity', 'IS_ENTITY_OWNER', {
                  claims: [owner],
                }),
              },
            }
          : {},
      ),
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

  it('deletes the content of an entity registered again under its ref (sync or run)', async () => {
    const sync = new EntityAttributeSync({
      store: new DatabaseAskDocsStore(ingestion.db.knex),
      entities: catalog,
      logger: mockServices.logger.mock(),
    });
    listed = [site('guide', 'uid-1', 'group:default/team-a'), site('other')];
    await run(1);
    expect(await visible('group:default/team-a')).toEqual([GUIDE]);
    // The same entity again: nothing deleted, nothing read.
    expect(await sync.run()).toMatchObject({ updated: 0, hidden: 0 });
    await run(1);
    expect(reads).toEqual([]);

    // Deleted and registered again by another team: the sync hides the old content at once
    // (the new owner sees none of it), the next run deletes it and reads the new entity.
    listed = [site('guide', 'uid-2', 'group:default/team-b'), site('other')];
    expect(await sync.run()).toMatchObject({ updated: 1 });
    expect(await visible('group:default/team-b')).toEqual([]);
    expect(await visible('group:default/team-a')).toEqual([]);
    expect(await sync.run()).toMatchObject({ updated: 0 }); // and it stays hidden
    expect(await visible('group:default/team-b')).toEqual([]);
    let progress = await run(1);
    expect(progress.chunksDeleted).toBeGreaterThan(0);
    expect(reads).toEqual(['guide/index.html']);
    expect(await visible('group:default/team-b')).toEqual([GUIDE]);
    expect(await visible('group:default/team-a')).toEqual([]);

    // Dropped and added again by its provider: a new uid, the same attributes. The same
    // entity: shown again by the sync, kept by the run with nothing read (the grace period's
    // point), and its new uid recorded.
    listed = [site('other')];
    await run(1);
    expect(await visible('group:default/team-b')).toEqual([]);
    listed = [site('guide', 'uid-2b', 'group:default/team-b'), site('other')];
    await sync.run();
    expect(await visible('group:default/team-b')).toEqual([GUIDE]);
    progress = await run(1);
    expect(reads).toEqual([]);
    expect(progress.chunksDeleted).toBe(0);
    expect(
      await ingestion.db
        .knex('ask_docs_entities')
        .where('entity_ref', GUIDE)
        .first('entity_uid'),
    ).toEqual({ entity_uid: 'uid-2b' });

    // Without a sync in between (or with it off), the run finds the other uid itself.
    listed = [site('guide', 'uid-3', 'group:default/team-c'), site('other')];
    progress = await run(1);
    expect(progress.chunksDeleted).toBeGreaterThan(0);
    expect(reads).toEqual(['guide/index.html']);
    expect(await visible('group:default/team-b')).toEqual([]);
    expect(await visible('group:default/team-c')).toEqual([GUIDE]);

    // Hidden within the grace period, then registered again: read anew, not shown unread.
    listed = [site('other')];
    await run(1);
    listed = [site('guide', 'uid-4', 'group:default/team-d'), site('other')];
    await run(1);
    expect(reads).toEqual(['guide/index.html']);
    expect(await visible('group:default/team-c')).toEqual([]);
    expect(await visible('group:default/team-d')).toEqual([GUIDE]);
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
