import { mockCredentials } from '@backstage/backend-test-utils';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { seedIndex } from '../retrieval/testUtils/seed';
import {
  cond,
  fakePermissions,
  FakeDecision,
} from '../testUtils/fakePermissions';
import {
  applyVisibility,
  visibleChunks,
} from '../database/visibilityPredicate';
import { createAskDocsChunkResourceLoader } from '../database/chunkResourceLoader';
import { IndexReader } from '../database/IndexReader';
import { resolveVisibility, Visibility } from './visibility';
import { askDocsChunkConditions, askDocsChunkRules } from './rules';

const PAY = 'component:default/payments';
const SEARCH = 'component:default/search';
const PAY_API = 'api:default/payments-api';
const OPS = 'system:ops/secret-ops';
const ALL = [PAY, SEARCH, PAY_API, OPS].sort();

const alice = mockCredentials.user('user:default/alice');

let db: TestDatabase;

beforeAll(async () => {
  db = await startTestDatabase();
  await seedIndex(db.knex, {
    entities: [
      {
        entityRef: PAY,
        owners: ['group:default/team-pay'],
        tags: ['payments', 'public'],
        labels: { tier: 'gold' },
        annotations: { 'backstage.io/techdocs-ref': 'dir:.' },
        spec: { type: 'service', lifecycle: 'production', system: 'billing' },
      },
      {
        entityRef: SEARCH,
        owners: ['group:default/team-search'],
        tags: ['search'],
        spec: { type: 'website', lifecycle: 'experimental' },
      },
      {
        entityRef: PAY_API,
        owners: ['group:default/team-pay'],
        spec: { type: 'openapi' },
      },
      {
        entityRef: OPS,
        owners: ['group:ops/sre'],
        tags: ['internal'],
        labels: { Confidential: 'TRUE' },
        annotations: { 'backstage.io/techdocs-ref': 'url:https://example.com' },
        spec: {
          type: 'service',
          providesApis: ['Pay-Api'],
          deploy: { region: { name: 'EU-West' } },
        },
      },
    ],
    documents: [
      {
        entityRef: PAY,
        title: 'Payments',
        chunks: [{ text: 'payments ledger' }, { text: 'refund flow' }],
      },
      {
        entityRef: SEARCH,
        title: 'Search',
        chunks: [{ text: 'search ranking' }],
      },
      {
        entityRef: PAY_API,
        title: 'Payments API',
        chunks: [{ text: 'api reference' }],
      },
      { entityRef: OPS, title: 'Ops', chunks: [{ text: 'incident runbook' }] },
    ],
  });
}, 60_000);

afterAll(async () => {
  await db?.stop();
});

async function visibleRefs(visibility: Visibility): Promise<string[]> {
  const rows = await visibleChunks(db.knex, visibility).distinct(
    'c.entity_ref',
  );
  return rows.map((r: { entity_ref: string }) => r.entity_ref).sort();
}

async function refsFor(chunk: FakeDecision, catalog: FakeDecision = 'ALLOW') {
  const visibility = await resolveVisibility({
    permissions: fakePermissions({ chunk, catalog }),
    credentials: alice,
  });
  return visibleRefs(visibility);
}

const chunkCond = (rule: string, params: Record<string, unknown>) =>
  cond('ask-docs-chunk', rule, params);
const catalogCond = (rule: string, params: Record<string, unknown>) =>
  cond('catalog-entity', rule, params);

describe('definitive decisions', () => {
  it('ALLOW for both permissions sees everything', async () => {
    expect(await refsFor('ALLOW', 'ALLOW')).toEqual(ALL);
  });

  it('DENY of either permission sees nothing', async () => {
    expect(await refsFor('DENY', 'ALLOW')).toEqual([]);
    expect(await refsFor('ALLOW', 'DENY')).toEqual([]);
  });

  it('a failing permission service sees nothing', async () => {
    const visibility = await resolveVisibility({
      permissions: fakePermissions({
        fail: new Error('permission backend unreachable'),
      }),
      credentials: alice,
    });
    expect(await visibleRefs(visibility)).toEqual([]);
    expect(visibility.summary()).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('permission backend unreachable'),
    });
  });

  it(`does not grant service or anonymous principals anything, and does not ask on their \
behalf`, async () => {
    for (const credentials of [
      mockCredentials.service('plugin:catalog'),
      mockCredentials.none(),
    ]) {
      const permissions = fakePermissions({ chunk: 'ALLOW', catalog: 'ALLOW' });
      const visibility = await resolveVisibility({ permissions, credentials });
      expect(await visibleRefs(visibility)).toEqual([]);
      expect(permissions.calls).toEqual([]);
    }
  });

  it('asks for exactly the chunk and catalog read permissions', async () => {
    const permissions = fakePermissions({});
    await resolveVisibility({ permissions, credentials: alice });
    expect(permissions.calls).toEqual([
      ['ask-docs.chunk.read', 'catalog.entity.read'],
    ]);
  });

  it('denies when the service answers with the wrong number of decisions', async () => {
    const permissions = fakePermissions({});
    permissions.authorizeConditional = async () => [{ result: 'ALLOW' as any }];
    const visibility = await resolveVisibility({
      permissions,
      credentials: alice,
    });
    expect(await visibleRefs(visibility)).toEqual([]);
  });
});

describe('ask-docs-chunk conditions', () => {
  it('IS_ENTITY_OWNER matches owners case-insensitively', async () => {
    expect(
      await refsFor({
        conditions: chunkCond('IS_ENTITY_OWNER', {
          claims: ['Group:Default/Team-Pay'],
        }),
      }),
    ).toEqual([PAY, PAY_API].sort());
  });

  it('the exported condition factories produce conditions the resolver accepts', async () => {
    expect(
      await refsFor({
        conditions: {
          anyOf: [
            askDocsChunkConditions.hasTag({ tag: 'search' }),
            askDocsChunkConditions.isInNamespace({ namespaces: ['ops'] }),
          ],
        },
      }),
    ).toEqual([SEARCH, OPS].sort());
  });

  it.each([
    ['IS_ENTITY_KIND', { kinds: ['API'] }, [PAY_API]],
    ['IS_IN_NAMESPACE', { namespaces: ['ops'] }, [OPS]],
    ['HAS_TAG', { tag: 'public' }, [PAY]],
    ['HAS_LABEL', { label: 'confidential' }, [OPS]],
    ['HAS_LABEL', { label: 'tier', value: 'silver' }, []],
    ['HAS_LABEL', { label: 'tier', value: 'GOLD' }, [PAY]],
    [
      'HAS_ANNOTATION',
      { annotation: 'backstage.io/techdocs-ref' },
      [PAY, OPS].sort(),
    ],
    [
      'HAS_ANNOTATION',
      { annotation: 'backstage.io/techdocs-ref', value: 'dir:.' },
      [PAY],
    ],
    // Parameters are bound, never spliced into SQL.
    ['HAS_LABEL', { label: "tier' OR true --", value: "x') OR (true" }, []],
  ])('%s %j', async (rule, params, expected) => {
    expect(await refsFor({ conditions: chunkCond(rule, params) })).toEqual(
      expected,
    );
  });

  it('compiles nested anyOf / allOf / not', async () => {
    const conditions = {
      anyOf: [
        {
          allOf: [
            chunkCond('IS_ENTITY_KIND', { kinds: ['component'] }),
            { not: chunkCond('HAS_TAG', { tag: 'public' }) },
          ],
        },
        chunkCond('IS_IN_NAMESPACE', { namespaces: ['ops'] }),
      ],
    };
    expect(await refsFor({ conditions })).toEqual([SEARCH, OPS].sort());
    expect(await refsFor({ conditions: { not: conditions } })).toEqual(
      [PAY, PAY_API].sort(),
    );
  });

  it("matches what the rules' apply() decides for the same conditions", async () => {
    const load = createAskDocsChunkResourceLoader(db.knex);
    const resources = await load(ALL);
    expect(resources.every(Boolean)).toBe(true);
    const cases: Array<[string, Record<string, unknown>]> = [
      [
        'IS_ENTITY_OWNER',
        { claims: ['group:default/team-pay', 'group:ops/sre'] },
      ],
      ['IS_ENTITY_KIND', { kinds: ['component', 'system'] }],
      ['IS_IN_NAMESPACE', { namespaces: ['default'] }],
      ['HAS_TAG', { tag: 'internal' }],
      ['HAS_LABEL', { label: 'Tier' }],
      [
        'HAS_ANNOTATION',
        {
          annotation: 'backstage.io/techdocs-ref',
          value: 'URL:https://example.com',
        },
      ],
    ];
    for (const [name, params] of cases) {
      const rule = askDocsChunkRules.find(r => r.name === name)!;
      const inMemory = ALL.filter((_, i) =>
        rule.apply(resources[i]!, params as any),
      ).sort();
      expect({
        name,
        refs: await refsFor({ conditions: chunkCond(name, params) }),
      }).toEqual({ name, refs: inMemory });
      expect(inMemory.length).toBeGreaterThan(0);
    }
  });

  it(`the resource loader resolves chunk ids to their entity and unknown refs to \
undefined`, async () => {
    const [chunk] = await db
      .knex('ask_docs_chunks')
      .where('entity_ref', OPS)
      .select('chunk_id');
    const load = createAskDocsChunkResourceLoader(db.knex);
    const [byChunk, missing, byRef] = await load([
      chunk.chunk_id,
      'component:default/nope',
      SEARCH.toUpperCase(),
    ]);
    expect(byChunk?.entityRef).toBe(OPS);
    expect(missing).toBeUndefined();
    expect(byRef?.entityRef).toBe(SEARCH);
  });
});

describe('malformed or unknown criteria deny everything', () => {
  const invalid: Array<[string, unknown]> = [
    ['unknown rule', chunkCond('IS_SUPERUSER', {})],
    ['unknown rule nested under not', { not: chunkCond('IS_SUPERUSER', {}) }],
    [
      'unknown rule beside a valid one in anyOf',
      {
        anyOf: [chunkCond('HAS_TAG', { tag: 'public' }), chunkCond('NOPE', {})],
      },
    ],
    [
      'catalog rule name for the chunk resource',
      chunkCond('HAS_SPEC', { key: 'type' }),
    ],
    [
      'condition for another resource type',
      cond('catalog-entity', 'HAS_TAG', { tag: 'public' }),
    ],
    [
      'params of the wrong type',
      chunkCond('IS_ENTITY_OWNER', { claims: 'group:default/team-pay' }),
    ],
    ['missing params', { rule: 'HAS_TAG', resourceType: 'ask-docs-chunk' }],
    [
      'misspelt param name',
      chunkCond('HAS_LABEL', { label: 'tier', valeu: 'gold' }),
    ],
    ['empty anyOf', { anyOf: [] }],
    ['empty allOf', { allOf: [] }],
    ['empty allOf under not', { not: { allOf: [] } }],
    [
      'anyOf that is not an array',
      { anyOf: chunkCond('HAS_TAG', { tag: 'public' }) },
    ],
    [
      'node with two operators',
      {
        anyOf: [chunkCond('HAS_TAG', { tag: 'x' })],
        not: chunkCond('HAS_TAG', { tag: 'y' }),
      },
    ],
    [
      'condition with extra keys',
      { ...chunkCond('HAS_TAG', { tag: 'public' }), or: true },
    ],
    ['null', null],
    ['a string', 'HAS_TAG'],
    ['an array', [chunkCond('HAS_TAG', { tag: 'public' })]],
  ];
  it.each(invalid)('%s', async (_, conditions) => {
    const visibility = await resolveVisibility({
      permissions: fakePermissions({ chunk: { conditions }, catalog: 'ALLOW' }),
      credentials: alice,
    });
    expect(await visibleRefs(visibility)).toEqual([]);
    expect(visibility.summary().decision).toBe('deny');
    expect(visibility.summary().reason).toMatch(/invalid permission criteria/);
  });

  it('too deeply nested criteria', async () => {
    let conditions: unknown = chunkCond('HAS_TAG', { tag: 'public' });
    for (let i = 0; i < 40; i++) conditions = { not: { not: conditions } };
    expect(await refsFor({ conditions })).toEqual([]);
  });

  it('a conditional decision from another plugin', async () => {
    expect(
      await refsFor({
        conditions: chunkCond('HAS_TAG', { tag: 'public' }),
        pluginId: 'catalog',
      }),
    ).toEqual([]);
  });
});

describe('catalog entity read conditions', () => {
  it.each([
    ['IS_ENTITY_OWNER', { claims: ['group:ops/sre'] }, [OPS]],
    ['IS_ENTITY_KIND', { kinds: ['Component'] }, [PAY, SEARCH].sort()],
    [
      'HAS_ANNOTATION',
      { annotation: 'BACKSTAGE.IO/TECHDOCS-REF' },
      [PAY, OPS].sort(),
    ],
    ['HAS_LABEL', { label: 'confidential', value: 'true' }, [OPS]],
    ['HAS_METADATA', { key: 'name', value: 'Search' }, [SEARCH]],
    ['HAS_METADATA', { key: 'namespace', value: 'ops' }, [OPS]],
    ['HAS_METADATA', { key: 'namespace' }, ALL],
    ['HAS_METADATA', { key: 'tags', value: 'search' }, [SEARCH]],
    ['HAS_METADATA', { key: 'tags' }, [PAY, SEARCH, OPS].sort()],
    ['HAS_METADATA', { key: 'labels.tier', value: 'gold' }, [PAY]],
    [
      'HAS_METADATA',
      { key: 'annotations.backstage.io/techdocs-ref' },
      [PAY, OPS].sort(),
    ],
    ['HAS_SPEC', { key: 'type', value: 'service' }, [PAY, OPS].sort()],
    ['HAS_SPEC', { key: 'lifecycle' }, [PAY, SEARCH].sort()],
    ['HAS_SPEC', { key: 'providesApis', value: 'pay-api' }, [OPS]],
    ['HAS_SPEC', { key: 'providesApis.Pay-Api' }, [OPS]],
    ['HAS_SPEC', { key: 'deploy.region.name', value: 'eu-west' }, [OPS]],
    // An intermediate object is not a searchable value in the catalog either.
    ['HAS_SPEC', { key: 'deploy.region' }, []],
    ['HAS_SPEC', { key: 'type', value: 'library' }, []],
  ])('%s %j', async (rule, params, expected) => {
    expect(
      await refsFor('ALLOW', { conditions: catalogCond(rule, params) }),
    ).toEqual(expected);
  });

  it.each([
    [
      'custom catalog rule',
      catalogCond('IS_IN_SYSTEM', { systemRef: 'system:default/billing' }),
    ],
    [
      'unsupported metadata key',
      catalogCond('HAS_METADATA', { key: 'title', value: 'Payments' }),
    ],
    [
      'unsupported metadata key under not',
      { not: catalogCond('HAS_METADATA', { key: 'description' }) },
    ],
    [
      'ask-docs rule name in a catalog decision',
      catalogCond('HAS_TAG', { tag: 'public' }),
    ],
  ])('%s denies everything', async (_, conditions) => {
    expect(await refsFor('ALLOW', { conditions })).toEqual([]);
  });

  it('is intersected with the chunk decision', async () => {
    const chunk = {
      conditions: chunkCond('IS_ENTITY_OWNER', {
        claims: ['group:default/team-pay'],
      }),
    };
    const catalog = {
      conditions: catalogCond('IS_ENTITY_KIND', { kinds: ['component'] }),
    };
    expect(await refsFor(chunk, catalog)).toEqual([PAY]);
    expect(await refsFor(chunk, 'DENY')).toEqual([]);
  });
});

describe('Visibility', () => {
  it('summarises the decisions for the audit log', async () => {
    const visibility = await resolveVisibility({
      permissions: fakePermissions({
        chunk: { conditions: chunkCond('HAS_TAG', { tag: 'public' }) },
        catalog: 'ALLOW',
      }),
      credentials: alice,
    });
    expect(visibility.summary()).toEqual({
      decision: 'conditional',
      userEntityRef: 'user:default/alice',
      decisions: [
        {
          permission: 'ask-docs.chunk.read',
          result: 'CONDITIONAL',
          pluginId: 'ask-docs',
          resourceType: 'ask-docs-chunk',
          conditions: chunkCond('HAS_TAG', { tag: 'public' }),
        },
        { permission: 'catalog.entity.read', result: 'ALLOW' },
      ],
    });
  });

  it(`ALLOW still goes through the entity table: chunks without an entity row are \
invisible`, async () => {
    await db.knex('ask_docs_chunks').insert({
      chunk_id: 'orphan',
      document_id: (
        await db.knex('ask_docs_documents').first('document_id')
      ).document_id,
      entity_ref: 'component:default/deleted',
      ordinal: 99,
      title: 'Orphan',
      section_path: 'Orphan',
      anchor: '',
      char_start: 0,
      char_end: 1,
      text: 'orphan',
      content_hash: 'x',
      revision: 'r',
      lang: 'en',
    });
    try {
      const visibility = await resolveVisibility({
        permissions: fakePermissions({}),
        credentials: alice,
      });
      expect(await visibleRefs(visibility)).toEqual(ALL);
    } finally {
      await db.knex('ask_docs_chunks').where('chunk_id', 'orphan').delete();
    }
  });

  it('cannot be constructed or imitated outside resolveVisibility', async () => {
    // An empty list of criteria would mean "everything is visible".
    expect(() =>
      (Visibility as any).create(Symbol('Visibility'), [], {}),
    ).toThrow(/created by resolveVisibility\(\) only/);
    const forged = { apply: (qb: any) => qb, summary: () => ({}) };
    expect(() => visibleChunks(db.knex, forged as any)).toThrow(/Visibility/);
    expect(() =>
      applyVisibility(forged as any, db.knex('ask_docs_chunks'), 'entity_ref'),
    ).toThrow(/Visibility/);
    expect(() => new IndexReader(db.knex, forged as any)).toThrow(/Visibility/);
    expect(() => Visibility.criteriaOf(forged as any)).toThrow(/Visibility/);
  });

  it('refuses a query that already has OR conditions, and bad column names', async () => {
    const visibility = await resolveVisibility({
      permissions: fakePermissions({}),
      credentials: alice,
    });
    const qb = db
      .knex('ask_docs_chunks')
      .where('ordinal', 0)
      .orWhere('ordinal', 1);
    expect(() => applyVisibility(visibility, qb, 'entity_ref')).toThrow(/OR/);
    expect(() =>
      applyVisibility(
        visibility,
        db.knex('ask_docs_chunks'),
        'entity_ref) OR (true',
      ),
    ).toThrow(/invalid column/);
  });

  it('denyAll sees nothing', async () => {
    expect(await visibleRefs(Visibility.denyAll('no user'))).toEqual([]);
  });
});
