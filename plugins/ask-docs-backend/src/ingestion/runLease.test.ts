/*
 * Two backend instances (replicas) on one database: one ingestion run at a time (migration 0009).
 * Before, a manual start on one replica while the other ran the schedule gave two overlapping
 * runs, and the run whose listing was older deleted entities the other had just indexed.
 */
import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { RunTakenOverError } from '../database/AskDocsStore';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { HashingEmbedder } from '../embedding';
import { Analyzers, createLanguageAnalyzers } from '../language';
import { AskDocsAuthorizer } from '../service/authorization';
import { IngestionController } from '../service/IngestionController';
import { catalogComponent } from '../testUtils/catalogComponent';
import { fakePermissions } from '../testUtils/fakePermissions';
import { pageWriteOf, TEST_MODEL } from '../testUtils/indexFixtures';
import { useTestDatabase } from '../testUtils/testDatabase';
import { entityRow } from './entityRow';
import {
  emptyProgress,
  IngestionRunningElsewhereError,
  Ingester,
  RunLease,
} from './Ingester';
import { EntitySource } from './sources';

const component = (name: string) =>
  catalogComponent(name, { owner: 'group:default/docs', type: 'service' });

/** A catalog listing that stops after `first` until released, as a slow catalog would. */
function pausedListing(first: Entity[], rest: Entity[] = []) {
  let release = () => {};
  let paused = () => {};
  const reachedPause = new Promise<void>(r => (paused = r));
  const gate = new Promise<void>(r => (release = r));
  const source: EntitySource = {
    async *listEntities() {
      yield* first;
      paused();
      await gate;
      yield* rest;
    },
  };
  return { source, reachedPause, release };
}

const listing = (entities: Entity[]) => {
  const source = {
    calls: 0,
    async *listEntities() {
      source.calls += 1;
      yield* entities;
    },
  };
  return source;
};

describe('one ingestion run across backend instances', () => {
  const db = useTestDatabase();
  let analyzers: Analyzers;
  beforeAll(async () => {
    analyzers = await createLanguageAnalyzers({ languages: ['en'] });
  });

  /** One replica's ingester: its own store object and ingester over the shared database. */
  const replica = (entities: EntitySource, runLease?: RunLease) =>
    new Ingester({
      store: new DatabaseAskDocsStore(db.knex),
      entities,
      techdocs: { getSite: async () => undefined, getPage: async () => '' },
      embedder: new HashingEmbedder({ analyzers }),
      analyzers,
      languages: ['en'],
      logger: mockServices.logger.mock(),
      runLease,
    });
  const runs = () =>
    db.knex('ask_docs_ingestion_runs').orderBy('id').select('id', 'status');
  const indexedRefs = () =>
    new DatabaseAskDocsStore(db.knex).listEntityRefs().then(r => r.sort());

  it('the database holds at most one running run', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    const starts = await Promise.all(
      [1, 2, 3, 4].map(() =>
        new DatabaseAskDocsStore(db.knex).startRun('schedule', 300_000),
      ),
    );
    const started = starts.filter(s => s.started);
    expect(started).toHaveLength(1);
    // The others name the run in progress.
    expect(new Set(starts.map(s => s.runId))).toEqual(
      new Set([started[0].runId]),
    );
    // Not only by the store's own care: a second 'running' row is refused by the database.
    await expect(
      db.knex('ask_docs_ingestion_runs').insert({
        trigger: 'manual',
        status: 'running',
      }),
    ).rejects.toThrow(/ask_docs_ingestion_runs_one_running/);

    await store.finishRun(started[0].runId, 'succeeded', emptyProgress());
    const next = await store.startRun('manual', 300_000);
    expect(next.started).toBe(true);
    expect(next.runId).toBeGreaterThan(started[0].runId);
    await store.finishRun(next.runId, 'succeeded', emptyProgress());
  });

  it("a replica's start while another replica runs leaves the run to it", async () => {
    const a1 = component('lease-a1');
    const b1 = component('lease-b1');
    // Replica A lists a1, then the catalog is slow; meanwhile b1 is registered.
    const slow = pausedListing([a1]);
    const a = replica(slow.source);
    const runA = a.run('schedule');
    await slow.reachedPause;
    const runIdA = (await a.currentRun())!.runId;

    // Replica B: its schedule fires, and someone presses "start" on it.
    const bListing = listing([a1, b1]);
    const b = replica(bListing);
    await expect(b.run('schedule')).rejects.toThrow(
      new IngestionRunningElsewhereError(runIdA),
    );
    expect(bListing.calls).toBe(0);
    const controllerB = new IngestionController(
      new DatabaseAskDocsStore(db.knex),
      b,
      new AskDocsAuthorizer(fakePermissions({})),
    );
    expect(await controllerB.start()).toEqual({
      started: false,
      running: true,
      runId: runIdA,
    });
    // B's progress is A's run: the same record for the panel whichever replica answers.
    expect(await controllerB.progress()).toMatchObject({
      runId: runIdA,
      status: 'running',
    });
    expect(bListing.calls).toBe(0);

    slow.release();
    expect((await runA).errors).toEqual([]);
    // Now B may run, and indexes b1.
    const after = await b.run('manual');
    expect(after.entitiesDone).toBe(2);
    expect(await indexedRefs()).toEqual(
      expect.arrayContaining(['component:default/lease-a1', b1Ref]),
    );
    const mine = (await runs()).filter(r => r.id >= runIdA);
    expect(mine.map(r => r.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('a silent run is taken over, and its instance stops before its next entity', async () => {
    const [a1, b1, c1, d1] = ['a1', 'b1', 'c1', 'd1'].map(n =>
      component(`lease-${n}`),
    );
    const d1Ref = 'component:default/lease-d1';
    // Before: a1, b1 and d1 indexed.
    await replica(listing([a1, b1, d1])).run('manual');

    // A lists a1, then its instance stalls (no heartbeat due for a minute) before d1.
    const slow = pausedListing([a1], [d1]);
    const a = replica(slow.source, {
      heartbeatMs: 60_000,
      staleAfterMs: 300_000,
    });
    const runA = a.run('schedule');
    await slow.reachedPause;
    const runIdA = (await a.currentRun())!.runId;
    // Ten minutes go by without a heartbeat (database time).
    await db
      .knex('ask_docs_ingestion_runs')
      .where('id', runIdA)
      .update({ heartbeat_at: db.knex.raw("now() - interval '10 minutes'") });

    // Meanwhile d1 left the catalog and c1 joined it. B's schedule takes over.
    const progressB = await replica(listing([a1, b1, c1])).run('schedule');
    expect(progressB.entitiesDone).toBe(3);
    const recordA = await db
      .knex('ask_docs_ingestion_runs')
      .where('id', runIdA)
      .first();
    expect(recordA.status).toBe('failed');
    expect(JSON.stringify(recordA.errors)).toMatch(/abandoned: no heartbeat/);
    expect(await indexedRefs()).not.toContain(d1Ref);

    // A wakes up. Going on, it would write d1 back, and then delete b1 and c1 (not in its
    // listing); it stops instead.
    slow.release();
    const progressA = await runA;
    expect(progressA.errors.map(e => e.message).join('\n')).toMatch(
      /marked abandoned/,
    );
    expect(await indexedRefs()).toEqual(
      ['a1', 'b1', 'c1'].map(n => `component:default/lease-${n}`),
    );
    // A's record is still the abandonment, not overwritten by A's own end.
    const again = await db
      .knex('ask_docs_ingestion_runs')
      .where('id', runIdA)
      .first();
    expect(again.finished_at).toEqual(recordA.finished_at);
    expect(again.errors).toEqual(recordA.errors);
    expect((await runs()).filter(r => r.status === 'running')).toEqual([]);
  });

  it('a run stuck without progress stops renewing its heartbeat', async () => {
    const slow = pausedListing([component('lease-stuck')]);
    const a = replica(slow.source, { heartbeatMs: 5, staleAfterMs: 300_000 });
    const runA = a.run('schedule');
    await slow.reachedPause;
    const runIdA = (await a.currentRun())!.runId;
    const heartbeatAt = async () =>
      (
        await db.knex('ask_docs_ingestion_runs').where('id', runIdA).first()
      ).heartbeat_at.getTime();
    // While the entity before the pause is still being written, ticks renew; then the
    // heartbeat must settle (a timer renewing regardless never would: 5 ms ticks).
    const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
    let last = await heartbeatAt();
    for (let i = 0; i < 12; i++) {
      await sleep(250);
      const now = await heartbeatAt();
      if (now === last) break;
      last = now;
    }
    await sleep(300);
    const settled = await heartbeatAt();
    slow.release(); // whatever the outcome: a run left running would hold the next tests
    expect((await runA).errors).toEqual([]);
    expect(settled).toBe(last);
  });

  it('deletes only while its run runs, and no entity a later listing wrote', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    await replica(
      listing([component('lease-old'), component('lease-new')]),
    ).run('manual');
    const { runId } = await store.startRun('schedule', 300_000);
    const listedAt = await store.databaseNow();
    // Another listing, after this run's, wrote lease-new again.
    await store.upsertEntity(entityRow(component('lease-new')), {
      asOf: new Date(listedAt.getTime() + 60_000),
    });
    const refs = ['component:default/lease-old', 'component:default/lease-new'];
    await store.deleteEntities(refs, { runId, listedAt });
    expect(await indexedRefs()).not.toContain('component:default/lease-old');
    expect(await indexedRefs()).toContain('component:default/lease-new');

    // Taken over: nothing is deleted.
    await store.finishRun(runId, 'failed', emptyProgress());
    await expect(
      store.deleteEntities(['component:default/lease-new'], {
        runId,
        listedAt: new Date(listedAt.getTime() + 120_000),
      }),
    ).rejects.toThrow(RunTakenOverError);
    expect(await indexedRefs()).toContain('component:default/lease-new');
  });

  it('writes pages only while its run runs', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    const entityRef = 'component:default/lease-pages';
    await store.upsertEntity(entityRow(component('lease-pages')));
    const { runId } = await store.startRun('schedule', 300_000);
    const write = (path: string) =>
      store.replaceDocuments(
        [pageWriteOf(entityRef, path, ['text'])],
        TEST_MODEL,
        {
          runId,
        },
      );
    const written = () =>
      db
        .knex('ask_docs_documents')
        .where('entity_ref', entityRef)
        .pluck('page_path');
    await write('a.html');
    expect(await written()).toEqual(['a.html']);

    // Taken over (or ended): its later pages may be older than the new run's, so none is written.
    await store.finishRun(runId, 'failed', emptyProgress());
    await expect(write('b.html')).rejects.toThrow(RunTakenOverError);
    expect(await written()).toEqual(['a.html']);
  });

  it('a run with recent heartbeats is not taken over, a stale one is', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    const { runId } = await store.startRun('schedule', 300_000);
    expect(await store.heartbeatRun(runId)).toBe(true);
    expect(await store.failAbandonedRuns(300_000)).toBe(0);
    expect(await store.startRun('manual', 300_000)).toEqual({
      runId,
      started: false,
    });
    // Ten minutes without a heartbeat (database time: instances' clocks may disagree).
    await db
      .knex('ask_docs_ingestion_runs')
      .where('id', runId)
      .update({ heartbeat_at: db.knex.raw("now() - interval '10 minutes'") });
    const next = await store.startRun('manual', 300_000);
    expect(next.started).toBe(true);
    expect(await store.heartbeatRun(runId)).toBe(false);
    // Late progress and a late end of the abandoned run change nothing.
    await store.updateRun(runId, { ...emptyProgress(), entitiesDone: 7 });
    expect(await store.finishRun(runId, 'succeeded', emptyProgress())).toBe(
      false,
    );
    const old = await db
      .knex('ask_docs_ingestion_runs')
      .where('id', runId)
      .first();
    expect([old.status, old.entities_done]).toEqual(['failed', 0]);
    await store.finishRun(next.runId, 'succeeded', emptyProgress());
  });
});

const b1Ref = 'component:default/lease-b1';
