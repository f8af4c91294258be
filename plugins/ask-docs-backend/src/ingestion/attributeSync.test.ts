/*
 * Visibility attributes follow the catalog between ingestion runs (docs/architecture.md,
 * "Visibility attributes"): one sync tick applies owner, label and deletion changes without
 * touching chunks or vectors, and stale attributes hide everything (fail closed).
 */
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { DatabaseAskDocsStore } from '../database/DatabaseAskDocsStore';
import { HashingEmbedder } from '../embedding';
import { createLanguageAnalyzers } from '../language';
import {
  createAskDocsChunkResourceLoader,
  resolveVisibility,
} from '../permissions';
import {
  cond,
  fakePermissions,
  FakeDecision,
} from '../testUtils/fakePermissions';
import { visibleChunks } from '../database/visibilityPredicate';
import { hasAnnotation } from '../permissions/rules';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { EntityAttributeSync } from './attributeSync';
import { entityRow } from './entityRow';
import { Ingester } from './Ingester';
import { catalogComponent } from '../testUtils/catalogComponent';
import { EntitySource, TechDocsReader } from './sources';

const PAY = 'component:default/payments';
const SEARCH = 'component:default/search';

function component(
  name: string,
  owner: string,
  labels: Record<string, string> = {},
): Entity {
  const description = `The ${name} service handles ${name}.`;
  return catalogComponent(name, {
    owner,
    type: 'service',
    labels,
    description,
  });
}

/** A catalog that can change between ticks, or fail part-way through a listing. */
class FakeCatalog implements EntitySource {
  entities: Entity[] = [];
  failAfter: number | undefined;
  async *listEntities(): AsyncIterable<Entity> {
    for (const [i, e] of this.entities.entries()) {
      if (this.failAfter !== undefined && i >= this.failAfter)
        throw new Error('catalog returned 503');
      yield e;
    }
    if (this.failAfter !== undefined) throw new Error('catalog returned 503');
  }
}

const noTechDocs: TechDocsReader = {
  getSite: async () => undefined,
  getPage: async () => {
    throw new Error('no pages');
  },
};

describe('entity-attribute sync', () => {
  let db: TestDatabase;
  let store: DatabaseAskDocsStore;
  const catalog = new FakeCatalog();
  const logger = mockServices.logger.mock();
  let sync: EntityAttributeSync;

  const seen = async (
    decision: FakeDecision,
    catalogDecision: FakeDecision = 'ALLOW',
  ) => {
    const visibility = await resolveVisibility({
      permissions: fakePermissions({
        chunk: decision,
        catalog: catalogDecision,
      }),
      credentials: mockCredentials.user('user:default/someone'),
    });
    const rows = await visibleChunks(db.knex, visibility).distinct(
      'c.entity_ref',
    );
    return rows.map((r: { entity_ref: string }) => r.entity_ref).sort();
  };
  // The catalog's own rule, as the catalog's permission policy would send it.
  const ownedBy = (claim: string) =>
    seen('ALLOW', {
      conditions: cond('catalog-entity', 'IS_ENTITY_OWNER', {
        claims: [claim],
      }),
    });
  const labelled = (label: string, value: string) =>
    seen({ conditions: cond('ask-docs-chunk', 'HAS_LABEL', { label, value }) });
  const indexState = async () => ({
    chunks: await db
      .knex('ask_docs_chunks')
      .orderBy('chunk_id')
      .select('chunk_id', 'content_hash', 'entity_ref'),
    vectors: await db
      .knex('ask_docs_embeddings')
      .orderBy('chunk_id')
      .select('chunk_id', 'content_hash', db.knex.raw('embedding::text AS v')),
    postings: Number(
      (await db.knex('ask_docs_postings').sum({ n: 'df' }))[0].n ?? 0,
    ),
  });
  const ageLastSync = (seconds: number) =>
    db.knex.raw(
      `UPDATE ask_docs_visibility_sync SET last_success_at = now() - ? * interval '1 second'`,
      [seconds],
    );

  beforeAll(async () => {
    db = await startTestDatabase();
    store = new DatabaseAskDocsStore(db.knex);
    const analyzers = await createLanguageAnalyzers({ languages: ['en'] });
    catalog.entities = [
      component('payments', 'group:default/team-pay', { tier: 'gold' }),
      component('search', 'group:default/team-search'),
    ];
    const progress = await new Ingester({
      store,
      entities: catalog,
      techdocs: noTechDocs,
      embedder: new HashingEmbedder({ analyzers }),
      analyzers,
      languages: ['en'],
      logger,
    }).run('manual');
    expect(progress.errors).toEqual([]);
    await store.configureVisibilityFreshness(90);
    sync = new EntityAttributeSync({ store, entities: catalog, logger });
  });
  afterAll(async () => {
    await db?.stop();
  });
  beforeEach(async () => {
    catalog.failAfter = undefined;
    catalog.entities = [
      component('payments', 'group:default/team-pay', { tier: 'gold' }),
      component('search', 'group:default/team-search'),
    ];
    expect(await sync.run()).toBeDefined();
  });

  it('the ingestion run counted as a sync: with the guard on, the index is visible', async () => {
    expect(await seen('ALLOW')).toEqual([PAY, SEARCH]);
    expect((await store.visibilitySyncState()).stale).toBe(false);
  });

  it('an owner change applies after one tick, without touching chunks or vectors', async () => {
    expect(await ownedBy('group:default/team-pay')).toEqual([PAY]);
    const before = await indexState();

    catalog.entities[0] = component('payments', 'group:default/team-ledger', {
      tier: 'gold',
    });
    expect(await ownedBy('group:default/team-pay')).toEqual([PAY]); // not before the tick
    expect(await sync.run()).toEqual({ listed: 2, updated: 1, hidden: 0 });

    expect(await ownedBy('group:default/team-pay')).toEqual([]);
    expect(await ownedBy('group:default/team-ledger')).toEqual([PAY]);
    expect(await indexState()).toEqual(before);
  });

  it('a label change applies after one tick; an unchanged catalog rewrites nothing', async () => {
    expect(await labelled('tier', 'gold')).toEqual([PAY]);
    catalog.entities[0] = component('payments', 'group:default/team-pay', {
      tier: 'silver',
    });
    expect(await sync.run()).toMatchObject({ updated: 1 });
    expect(await labelled('tier', 'gold')).toEqual([]);
    expect(await labelled('tier', 'silver')).toEqual([PAY]);
    expect(await sync.run()).toEqual({ listed: 2, updated: 0, hidden: 0 });
  });

  it(`a deleted entity is hidden after one tick, keeps its chunks, returns when \
re-added`, async () => {
    const before = await indexState();
    catalog.entities = catalog.entities.filter(
      e => e.metadata.name !== 'search',
    );
    expect(await sync.run()).toEqual({ listed: 1, updated: 0, hidden: 1 });
    expect(await seen('ALLOW')).toEqual([PAY]);
    expect(await ownedBy('group:default/team-search')).toEqual([]);
    expect(
      await createAskDocsChunkResourceLoader(db.knex)([SEARCH, PAY]),
    ).toEqual([undefined, expect.objectContaining({ entityRef: PAY })]);
    expect(await indexState()).toEqual(before);

    catalog.entities.push(component('search', 'group:default/team-search'));
    expect(await sync.run()).toMatchObject({ updated: 1, hidden: 0 });
    expect(await seen('ALLOW')).toEqual([PAY, SEARCH]);
  });

  it('a failing listing changes nothing until the staleness bound, then hides all', async () => {
    // owner changed, search deleted
    catalog.entities = [component('payments', 'group:default/team-ledger')];
    catalog.failAfter = 1; // the first page arrives, then the catalog fails
    logger.warn.mockClear();
    expect(await sync.run()).toBeUndefined();
    // Within the bound: the attributes stay as last synced, nothing is hidden half-way.
    expect(await seen('ALLOW')).toEqual([PAY, SEARCH]);
    expect(await ownedBy('group:default/team-pay')).toEqual([PAY]);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /visibility attributes are stale since .*nothing will be visible after/,
      ),
    );

    await ageLastSync(91);
    expect((await store.visibilitySyncState()).stale).toBe(true);
    expect(await seen('ALLOW')).toEqual([]);
    expect(await ownedBy('group:default/team-pay')).toEqual([]);
    expect(
      await createAskDocsChunkResourceLoader(db.knex)([PAY, SEARCH]),
    ).toEqual([undefined, undefined]);
    logger.warn.mockClear();
    expect(await sync.run()).toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /stale since .*; nothing is visible until a sync succeeds/,
      ),
    );

    // The next complete listing brings everything back, with the new attributes.
    catalog.failAfter = undefined;
    expect(await sync.run()).toEqual({ listed: 1, updated: 1, hidden: 1 });
    expect(await seen('ALLOW')).toEqual([PAY]);
    expect(await ownedBy('group:default/team-ledger')).toEqual([PAY]);
  });

  it('warns when a listing takes more than half the staleness bound', async () => {
    const slow: EntitySource = {
      async *listEntities() {
        await new Promise(resolve => setTimeout(resolve, 30));
        yield* catalog.listEntities();
      },
    };
    const slowSync = (maxStalenessSeconds: number) =>
      new EntityAttributeSync({
        store,
        entities: slow,
        logger,
        maxStalenessSeconds,
      }).run();
    logger.warn.mockClear();
    expect(await slowSync(600)).toBeDefined();
    expect(logger.warn).not.toHaveBeenCalled();
    // 30 ms of listing against a bound of 40 ms.
    expect(await slowSync(0.04)).toBeDefined();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const [warning] = logger.warn.mock.calls[0];
    expect(warning).toMatch(
      /listing the catalog took \d+ s, more than half of askDocs\.visibilitySync\.maxStaleness/,
    );
    expect(warning).toMatch(/\(0\.04 s\).*raise maxStaleness$/);
  });

  it('stops a listing at the task timeout, recording nothing', async () => {
    const before = (await store.visibilitySyncState()).lastSuccessAt;
    catalog.entities = [component('payments', 'group:default/team-ledger')];
    const timedOut = new AbortController();
    timedOut.abort();
    logger.warn.mockClear();
    expect(await sync.run(timedOut.signal)).toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(/stopped at the task timeout/),
    );
    expect((await store.visibilitySyncState()).lastSuccessAt).toEqual(before);
    // Nothing of the partial listing was written or hidden.
    expect(await ownedBy('group:default/team-pay')).toEqual([PAY]);
    expect(await seen('ALLOW')).toEqual([PAY, SEARCH]);
  });

  it('an older listing never overwrites attributes a newer one wrote', async () => {
    const old = await store.databaseNow();
    // The sync's listing must start strictly later: the server clock may tick in milliseconds.
    await new Promise(r => setTimeout(r, 20));
    catalog.entities[0] = component('payments', 'group:default/team-ledger');
    expect(await sync.run()).toMatchObject({ updated: 1 });
    // e.g. an ingestion run that listed before the sync writes its (older) copy afterwards
    await store.upsertEntity(
      entityRow(component('payments', 'group:default/team-pay')),
      {
        asOf: old,
      },
    );
    expect(await ownedBy('group:default/team-pay')).toEqual([]);
    expect(await ownedBy('group:default/team-ledger')).toEqual([PAY]);
  });

  it('isEntityOwner follows the ownedBy relation, not spec.owner', async () => {
    const entity = component('payments', 'group:default/b');
    entity.spec = { ...entity.spec, owner: 'group:default/a' };
    catalog.entities[0] = entity;
    await sync.run();
    const chunkOwner = (claim: string) =>
      seen({
        conditions: cond('ask-docs-chunk', 'IS_ENTITY_OWNER', {
          claims: [claim],
        }),
      });
    expect(await ownedBy('group:default/a')).toEqual([]);
    expect(await chunkOwner('group:default/a')).toEqual([]);
    expect(await ownedBy('group:default/b')).toEqual([PAY]);
    expect(await chunkOwner('group:default/b')).toEqual([PAY]);
  });

  it(`labels and annotations named like Object.prototype members sync, and match in SQL and \
apply()`, async () => {
    const entity = component('payments', 'group:default/team-pay', {
      constructor: 'y',
    });
    // Parsed JSON, as from the catalog client: `__proto__` is an own key there.
    entity.metadata.annotations = JSON.parse(
      '{"Constructor": "z", "toString": "x", "__proto__": "p"}',
    );
    catalog.entities[0] = entity;
    expect(await sync.run()).toEqual({ listed: 2, updated: 1, hidden: 0 });
    expect(await labelled('constructor', 'y')).toEqual([PAY]);
    const annotated = (annotation: string, value: string) =>
      seen({
        conditions: cond('ask-docs-chunk', 'HAS_ANNOTATION', {
          annotation,
          value,
        }),
      });
    expect(await annotated('__proto__', 'p')).toEqual([PAY]);
    expect(await annotated('tostring', 'X')).toEqual([PAY]);
    const [pay, search] = await createAskDocsChunkResourceLoader(db.knex)([
      PAY,
      SEARCH,
    ]);
    const params = { annotation: 'constructor', value: 'Z' };
    expect(hasAnnotation.apply(pay!, params)).toBe(true);
    expect(hasAnnotation.apply(search!, params)).toBe(false);
  });

  it.each<[string, (e: Entity) => void]>([
    // The catalog validates tags; this stands for any entity the row mapping throws on.
    [
      'a tag that is no string',
      e => (e.metadata.tags = [42 as unknown as string]),
    ],
    // Postgres text and jsonb refuse NUL: the write would fail the whole batch.
    ['a NUL character', e => (e.metadata.annotations = { a: 'b\u0000c' })],
    // jsonb refuses the \ud800 escape JSON.stringify writes for a lone surrogate.
    ['a lone surrogate', e => (e.metadata.labels = { team: 'pay\ud800' })],
  ])('an entity with %s is hidden; the others still sync', async (_, spoil) => {
    const bad = component('payments', 'group:default/team-pay');
    spoil(bad);
    catalog.entities = [bad, component('search', 'group:default/team-ledger')];
    logger.warn.mockClear();
    const before = await store.databaseNow();
    expect(await sync.run()).toEqual({ listed: 1, updated: 1, hidden: 1 });
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining(`hiding ${PAY}, its attributes cannot be stored`),
    );
    expect(
      (await store.visibilitySyncState()).lastSuccessAt!.getTime(),
    ).toBeGreaterThanOrEqual(before.getTime());
    expect(await seen('ALLOW')).toEqual([SEARCH]);
    expect(await ownedBy('group:default/team-ledger')).toEqual([SEARCH]);
    expect(await createAskDocsChunkResourceLoader(db.knex)([PAY])).toEqual([
      undefined,
    ]);

    // Fixed in the catalog: visible again after the next tick.
    catalog.entities[0] = component('payments', 'group:default/team-pay');
    expect(await sync.run()).toMatchObject({ updated: 1, hidden: 0 });
    expect(await seen('ALLOW')).toEqual([PAY, SEARCH]);
  });

  it('with the guard off (fixtures, scripts without a plugin), age does not matter', async () => {
    await store.configureVisibilityFreshness(undefined);
    try {
      await ageLastSync(86_400);
      expect(await seen('ALLOW')).toEqual([PAY, SEARCH]);
    } finally {
      await store.configureVisibilityFreshness(90);
    }
  });
});

describe('ownership comes from resolved relations only', () => {
  it('ignores spec.owner; an entity without ownedBy relations has no owners', () => {
    const entity = component('payments', 'group:default/b');
    entity.spec = { ...entity.spec, owner: 'group:default/a' };
    expect(entityRow(entity).owners).toEqual(['group:default/b']);
    expect(entityRow({ ...entity, relations: undefined }).owners).toEqual([]);
  });
});
