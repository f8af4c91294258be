/*
 * Permission leak fuzzing: random conditional policies over a small index built by the real
 * Ingester, checked against an oracle written here (not the production compiler). Every entity
 * carries a secret marker word in its texts, titles and catalog description; nothing of an
 * entity the oracle hides may come back from retrieve(), keywordStatistics() or
 * suggestCorrections(): no chunk, title, text, id, df count or spelling suggestion.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { PermissionsService } from '@backstage/backend-plugin-api';
import {
  startTestDatabase,
  TestDatabase,
} from '../../plugins/ask-docs-backend/src/testUtils/testDatabase';
import { seededRandom } from '../../plugins/ask-docs-backend/src/testUtils/seededRandom';
import { randomOperator } from '../src/leakFuzz/policies';
import { osaDistance, typoOf } from '../src/leakFuzz/corpus';
// prettier-ignore
import {
  DatabaseAskDocsStore,
} from '../../plugins/ask-docs-backend/src/database/DatabaseAskDocsStore';
import { HashingEmbedder } from '../../plugins/ask-docs-backend/src/embedding';
import { TechDocsReader } from '../../plugins/ask-docs-backend/src/ingestion/sources';
import {
  Analyzers,
  createLanguageAnalyzers,
} from '../../plugins/ask-docs-backend/src/language';
import {
  AskDocsEntityAttributes,
  resolveVisibility,
  Visibility,
} from '../../plugins/ask-docs-backend/src/permissions';
import { prepareQuestion } from '../../plugins/ask-docs-backend/src/service/prepareQuestion';
import {
  keywordStatistics,
  QueryToken,
  retrieve,
  RetrievalMode,
  suggestCorrections,
} from '../../plugins/ask-docs-backend/src/retrieval';
import { fakePermissions, ingestEnglish, quietLogger } from '../src';
import { IndexReader } from '../../plugins/ask-docs-backend/src/database/IndexReader';

const RT = 'ask-docs-chunk';
const POLICIES = 60;

/** mulberry32: reproducible runs; the seed is in the test name so a failure can be replayed. */
function prng(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const subset = <T>(xs: readonly T[], max = xs.length): T[] =>
    xs.filter(() => next() < 0.5).slice(0, max);
  const chance = (p: number) => next() < p;
  return { next, int, pick, subset, chance };
}
const SEED = 20261203;

// Names at least three edits apart, none a prefix of another, so typos and prefixes are
// unambiguous.
const NAMES = [
  'sierra',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
  'oscar',
  'quebec',
];
const KINDS = ['Component', 'API', 'System', 'Resource'];
const NAMESPACES = ['default', 'ops', 'finance'];
const GROUPS = [
  'group:default/team-a',
  'group:default/team-b',
  'group:default/team-c',
  'group:ops/team-d',
];
const TAGS = ['public', 'restricted', 'pci', 'internal'];
const LABELS: Record<string, string[]> = {
  tier: ['gold', 'silver'],
  env: ['prod', 'dev'],
};
const ANNOTATIONS: Record<string, string[]> = {
  'example.com/confidential': ['true', 'false'],
  'example.com/region': ['eu', 'us'],
};

/** A fuzz entity: the visibility attributes the oracle reads, its ref and its secret marker. */
interface Fixture
  extends Pick<
    AskDocsEntityAttributes,
    'kind' | 'namespace' | 'name' | 'owners' | 'tags' | 'labels' | 'annotations'
  > {
  ref: string;
  marker: string;
}

const markerOf = (name: string) => `zq${name}marker`;
const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

function buildFixtures(): Fixture[] {
  const r = prng(SEED);
  return NAMES.map(name => {
    const kind = r.pick(KINDS);
    const namespace = r.pick(NAMESPACES);
    const labels: Record<string, string> = {};
    for (const [k, vs] of Object.entries(LABELS))
      if (r.chance(0.5)) labels[k] = r.pick(vs);
    const annotations: Record<string, string> = {};
    for (const [k, vs] of Object.entries(ANNOTATIONS))
      if (r.chance(0.5)) annotations[k] = r.pick(vs);
    const owners = [r.pick(GROUPS), ...r.subset(GROUPS, 1)];
    return {
      name,
      ref: stringifyEntityRef({ kind, namespace, name }),
      marker: markerOf(name),
      kind,
      namespace,
      owners: [...new Set(owners)],
      tags: r.subset(TAGS, 2),
      labels,
      annotations,
    };
  });
}

function toEntity(f: Fixture): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: f.kind,
    metadata: {
      name: f.name,
      namespace: f.namespace,
      title: `${capital(f.name)} service`,
      description: `Catalog entry of ${f.marker}.`,
      tags: f.tags,
      labels: f.labels,
      annotations: { 'backstage.io/techdocs-ref': 'dir:.', ...f.annotations },
      etag: `etag-${f.name}`,
    },
    spec: { type: 'service', owner: f.owners[0] },
    relations: f.owners.map(targetRef => ({ type: 'ownedBy', targetRef })),
  };
}

/** Two pages per entity; the marker is in body text and, on the second page, in the title. */
function pagesOf(f: Fixture): Record<string, string> {
  const body = (s: string) =>
    `<html><head><title>${s}</title></head><body><article>${s}</article></body></html>`;
  return {
    'index.html': body(
      `<h1>${capital(f.name)} runbook</h1><p>The handbook explains how ${
        f.marker
      } restarts the worker pool after an outage.</p>` +
        `<h2 id="escalation">Escalation</h2><p>The handbook lists who to page when the queue of ` +
        `${f.marker} grows.</p>`,
    ),
    'ops/index.html': body(
      `<h1>${capital(f.marker)} operations</h1>` +
        '<p>Daily checks from the handbook: disk usage, certificate expiry and backups.</p>' +
        `<h2 id="deploy">Deploying</h2><p>Deploy ${f.marker} with the standard pipeline ` +
        `described in the handbook.</p>`,
    ),
  };
}

class MemoryTechDocs implements TechDocsReader {
  constructor(private readonly sites: Map<string, Record<string, string>>) {}
  async getSite(entity: Entity) {
    const pages = this.sites.get(stringifyEntityRef(entity));
    return pages
      ? {
          siteName: entity.metadata.name,
          etag: 'rev-1',
          pages: Object.keys(pages),
        }
      : undefined;
  }
  async getPage(entity: Entity, pagePath: string) {
    const page = this.sites.get(stringifyEntityRef(entity))?.[pagePath];
    if (page === undefined) throw new Error(`no page ${pagePath}`);
    return page;
  }
}

// ---- policies and the oracle -------------------------------------------------------------

type Policy = any;

const lc = (s: string) => s.toLowerCase();
/** Case noise in parameters: the framework compares case-insensitively, as the catalog does. */
const noisy = (r: ReturnType<typeof prng>, s: string) =>
  r.chance(0.2) ? s.toUpperCase() : s;

function randomLeaf(r: ReturnType<typeof prng>): Policy {
  const leaf = (rule: string, params: object) => ({
    rule,
    resourceType: RT,
    params,
  });
  switch (r.int(6)) {
    case 0:
      return leaf('IS_ENTITY_OWNER', {
        claims: [...r.subset(GROUPS, 2), 'user:default/fuzzer'].map(c =>
          noisy(r, c),
        ),
      });
    case 1:
      return leaf('IS_ENTITY_KIND', {
        kinds: r.subset(KINDS, 2).map(k => noisy(r, k)),
      });
    case 2:
      return leaf('IS_IN_NAMESPACE', {
        namespaces: r.subset(NAMESPACES, 2).map(n => noisy(r, n)),
      });
    case 3:
      return leaf('HAS_TAG', { tag: noisy(r, r.pick(TAGS)) });
    case 4: {
      const label = r.pick(Object.keys(LABELS));
      return leaf(
        'HAS_LABEL',
        r.chance(0.5)
          ? { label }
          : { label, value: noisy(r, r.pick(LABELS[label])) },
      );
    }
    default: {
      const annotation = r.pick(Object.keys(ANNOTATIONS));
      return leaf(
        'HAS_ANNOTATION',
        r.chance(0.5)
          ? { annotation }
          : { annotation, value: r.pick(ANNOTATIONS[annotation]) },
      );
    }
  }
}

function randomPolicy(r: ReturnType<typeof prng>, depth = 0): Policy {
  if (depth >= 3 || r.chance(0.35)) return randomLeaf(r);
  const children = () =>
    Array.from({ length: 2 + r.int(2) }, () => randomPolicy(r, depth + 1));
  return randomOperator(r, children, () => randomPolicy(r, depth + 1));
}

/** The oracle: what a policy grants, evaluated on the fixtures themselves. */
function oracle(policy: Policy, f: Fixture): boolean {
  if ('anyOf' in policy) return policy.anyOf.some((p: Policy) => oracle(p, f));
  if ('allOf' in policy) return policy.allOf.every((p: Policy) => oracle(p, f));
  if ('not' in policy) return !oracle(policy.not, f);
  const p = policy.params;
  const annotations: Record<string, string> = {
    'backstage.io/techdocs-ref': 'dir:.',
    ...f.annotations,
  };
  switch (policy.rule) {
    case 'IS_ENTITY_OWNER':
      return p.claims.some((c: string) => f.owners.map(lc).includes(lc(c)));
    case 'IS_ENTITY_KIND':
      return p.kinds.some((k: string) => lc(k) === lc(f.kind));
    case 'IS_IN_NAMESPACE':
      return p.namespaces.some((n: string) => lc(n) === lc(f.namespace));
    case 'HAS_TAG':
      return f.tags.map(lc).includes(lc(p.tag));
    case 'HAS_LABEL':
      return (
        p.label in f.labels &&
        (p.value === undefined || lc(f.labels[p.label]) === lc(p.value))
      );
    case 'HAS_ANNOTATION':
      return (
        p.annotation in annotations &&
        (p.value === undefined || lc(annotations[p.annotation]) === lc(p.value))
      );
    default:
      throw new Error(`oracle: unknown rule ${policy.rule}`);
  }
}

/** A policy backend that answers ask-docs.chunk.read with the given conditional decision. */
const policyService = (
  conditions: unknown,
  decision: { pluginId?: string; resourceType?: string } = {},
) => fakePermissions({ chunk: { conditions, ...decision } });

// ---- the test ----------------------------------------------------------------------------

interface ChunkRow {
  chunk_id: string;
  entity_ref: string;
  title: string;
  section_path: string;
  text: string;
}

describe('permission leak fuzzing (real ingestion, random conditional policies, oracle)', () => {
  let db: TestDatabase;
  let analyzers: Analyzers;
  const embedder = new HashingEmbedder();
  const fixtures = buildFixtures();
  let chunks: ChunkRow[] = [];

  // As AskService prepares a question; no term limit, the probes ask for every marker at once.
  const tokensOf = (text: string): QueryToken[] =>
    prepareQuestion(text, analyzers, { maxQueryTerms: Infinity }).queryTokens;
  const visibilityOf = (service: PermissionsService) =>
    resolveVisibility({
      permissions: service,
      credentials: mockCredentials.user('user:default/fuzzer'),
    });
  /** Every candidate a retriever produces (no evidence bar), so each one is checked. */
  const retrieveAll = async (
    visibility: Visibility,
    question: string,
    mode: RetrievalMode,
  ) =>
    retrieve({
      reader: new IndexReader(db.knex, visibility),
      modelId: embedder.modelId,
      queryTokens: tokensOf(question),
      queryVector: await embedder.embedQuery(question),
      mode,
      k: 50,
      thresholds: { minSimilarity: -1, minCoverage: 0 },
    });
  /**
   * Chunks (by the stored text the terms are built from) that contain a word starting with
   * `prefix`.
   */
  const chunksWith = (prefix: string, refs: Set<string>) =>
    chunks.filter(
      c =>
        refs.has(c.entity_ref) &&
        new RegExp(`\\b${prefix}`).test(lc(`${c.section_path}\n${c.text}`)),
    );

  beforeAll(async () => {
    db = await startTestDatabase();
    analyzers = await createLanguageAnalyzers({
      languages: ['en'],
      onMissingDictionary: 'stem-only',
      logger: quietLogger(),
    });
    const sites = new Map(fixtures.map(f => [f.ref, pagesOf(f)]));
    const progress = await ingestEnglish({
      store: new DatabaseAskDocsStore(db.knex),
      entities: fixtures.map(toEntity),
      techdocs: new MemoryTechDocs(sites),
      embedder,
      analyzers,
    });
    expect(progress.errors).toEqual([]);
    chunks = await db
      .knex('ask_docs_chunks')
      .select('chunk_id', 'entity_ref', 'title', 'section_path', 'text');
  });

  afterAll(async () => {
    await db?.stop();
  });

  it('indexed every entity with its marker in catalog and TechDocs chunks', () => {
    for (const f of fixtures) {
      const own = chunks.filter(c => c.entity_ref === f.ref);
      // catalog document + 4 TechDocs sections
      expect(own.length).toBeGreaterThanOrEqual(5);
      expect(
        own.every(c => lc(`${c.section_path}\n${c.text}`).includes(f.marker)),
      ).toBe(true);
      expect(
        chunks.filter(
          c =>
            c.entity_ref !== f.ref &&
            lc(c.text + c.section_path).includes(f.marker),
        ),
      ).toEqual([]);
    }
    // every typo is one edit from its own marker and at least three from any other
    for (const f of fixtures) {
      const typo = typoOf(f.marker);
      expect(osaDistance(typo, f.marker)).toBe(1);
      for (const g of fixtures)
        if (g !== f)
          expect(osaDistance(typo, g.marker)).toBeGreaterThanOrEqual(3);
    }
  });

  const prefixOf = (marker: string) => marker.slice(0, -3);

  it(`returns nothing of hidden entities for ${POLICIES} random policies (seed \
${SEED})`, async () => {
    const r = prng(SEED + 1);
    const visibleCounts: number[] = [];
    for (let i = 0; i < POLICIES; i++) {
      const policy = randomPolicy(r);
      const visible = fixtures.filter(f => oracle(policy, f));
      const hidden = fixtures.filter(f => !oracle(policy, f));
      const visibleRefs = new Set(visible.map(f => f.ref));
      const hiddenIds = new Set(
        chunks.filter(c => !visibleRefs.has(c.entity_ref)).map(c => c.chunk_id),
      );
      const hiddenWords = new RegExp(
        hidden.map(f => f.name).join('|') || '(?!)',
        'i',
      );
      visibleCounts.push(visible.length);
      const context = `policy #${i}: ${JSON.stringify(policy)}`;
      const visibility = await visibilityOf(policyService(policy));
      expect({ context, decision: visibility.summary().decision }).toEqual({
        context,
        decision: 'conditional',
      });

      // 1. Statistics: N, df and match kind per token agree with the oracle.
      const probe = fixtures.flatMap(f => [
        f.marker,
        prefixOf(f.marker),
        typoOf(f.marker),
      ]);
      const stats = await keywordStatistics({
        reader: new IndexReader(db.knex, visibility),
        queryTokens: tokensOf(probe.join(' ')),
      });
      expect({ context, n: stats.visibleChunks }).toEqual({
        context,
        n: chunks.filter(c => visibleRefs.has(c.entity_ref)).length,
      });
      const byToken = new Map(stats.tokens.map(t => [t.token, t]));
      for (const f of fixtures) {
        const shown = visibleRefs.has(f.ref);
        const expectedDf = chunksWith(f.marker, visibleRefs).length;
        expect({
          context,
          t: f.marker,
          df: byToken.get(f.marker)?.df,
          match: byToken.get(f.marker)?.match,
        }).toEqual({
          context,
          t: f.marker,
          df: expectedDf,
          match: shown ? 'exact' : 'none',
        });
        const prefix = byToken.get(prefixOf(f.marker));
        expect({
          context,
          t: prefix?.token,
          df: prefix?.df,
          match: prefix?.match,
        }).toEqual({
          context,
          t: prefixOf(f.marker),
          df: expectedDf,
          match: shown ? 'prefix' : 'none',
        });
        expect({
          context,
          t: typoOf(f.marker),
          df: byToken.get(typoOf(f.marker))?.df,
        }).toEqual({ context, t: typoOf(f.marker), df: 0 });
      }

      // 2. Spelling: a typo is corrected to its marker exactly when the marker is visible.
      // All typos in one question: the per-question word cap (typoBounds.test.ts) is lifted here.
      const corrections = await suggestCorrections({
        reader: new IndexReader(db.knex, visibility),
        queryTokens: tokensOf(fixtures.map(f => typoOf(f.marker)).join(' ')),
        maxWords: fixtures.length,
      });
      expect({
        context,
        corrections: corrections.map(c => [c.from, c.to, c.df]).sort(),
      }).toEqual({
        context,
        corrections: visible
          .map(f => [
            typoOf(f.marker),
            f.marker,
            chunksWith(f.marker, visibleRefs).length,
          ])
          .sort(),
      });

      // 3. Keyword retrieval of a word on every page returns exactly the oracle's chunks.
      const common = await retrieve({
        reader: new IndexReader(db.knex, visibility),
        modelId: embedder.modelId,
        queryTokens: tokensOf('handbook'),
        queryVector: await embedder.embedQuery('handbook'),
        mode: 'keyword',
        k: 500,
      });
      expect({
        context,
        ids: common.chunks.map(c => c.chunkId).sort(),
      }).toEqual({
        context,
        ids: chunksWith('handbook', visibleRefs)
          .map(c => c.chunk_id)
          .sort(),
      });

      // 4. Marker, prefix and typo queries in every mode: nothing hidden, and visible ones found.
      const queries = [
        ...(visible.length
          ? [
              {
                f: r.pick(visible),
                shape: r.pick(['marker', 'prefix', 'typo'] as const),
              },
            ]
          : []),
        ...(hidden.length
          ? [
              {
                f: r.pick(hidden),
                shape: r.pick(['marker', 'prefix', 'typo'] as const),
              },
            ]
          : []),
      ];
      for (const { f, shape } of queries) {
        const word =
          shape === 'marker'
            ? f.marker
            : shape === 'prefix'
            ? prefixOf(f.marker)
            : typoOf(f.marker);
        const question = word;
        const shown = visibleRefs.has(f.ref);
        for (const mode of ['hybrid', 'vector', 'keyword'] as RetrievalMode[]) {
          const result = await retrieveAll(visibility, question, mode);
          const where = `${context} query "${question}" (${shape} of ${
            shown ? 'visible' : 'hidden'
          } ${f.name}) ${mode}`;
          const leaked = result.chunks.filter(
            c => !visibleRefs.has(c.entityRef) || hiddenIds.has(c.chunkId),
          );
          expect({ where, leaked }).toEqual({ where, leaked: [] });
          const shownText = JSON.stringify(
            result.chunks.map(c => [
              c.title,
              c.sectionPath,
              c.text,
              c.url,
              c.entityRef,
            ]),
          );
          expect({
            where,
            hiddenNameShown: hiddenWords.exec(shownText)?.[0],
          }).toEqual({ where, hiddenNameShown: undefined });
          expect({
            where,
            corrections: result.corrections.filter(c => hiddenWords.test(c.to)),
          }).toEqual({ where, corrections: [] });
          const hiddenStats = (result.keywordStatistics?.tokens ?? []).filter(
            t => hiddenWords.test(t.token) && t.df !== 0,
          );
          expect({ where, hiddenStats }).toEqual({ where, hiddenStats: [] });
          if (mode === 'keyword') {
            // Keyword retrieval finds every chunk with the (corrected) marker, and only when
            // visible.
            const expected = shown
              ? chunksWith(f.marker, visibleRefs)
                  .map(c => c.chunk_id)
                  .sort()
              : [];
            expect({
              where,
              ids: result.chunks.map(c => c.chunkId).sort(),
            }).toEqual({ where, ids: expected });
            expect({ where, corrections: result.corrections }).toEqual({
              where,
              corrections:
                shown && shape === 'typo' ? [{ from: word, to: f.marker }] : [],
            });
          }
        }
      }
    }
    // The generator exercised all three outcomes, or the fuzzing proves little.
    expect(visibleCounts.filter(n => n === 0).length).toBeGreaterThan(0);
    expect(
      visibleCounts.filter(n => n === fixtures.length).length,
    ).toBeGreaterThan(0);
    expect(
      visibleCounts.filter(n => n > 0 && n < fixtures.length).length,
    ).toBeGreaterThan(POLICIES / 3);
  });

  const leaf = (rule: string, params: unknown, extra: object = {}) => ({
    rule,
    resourceType: RT,
    params,
    ...extra,
  });
  // Objects, not tuples: it.each would take a missing third tuple element for jest's `done`.
  const malformed: Array<{
    name: string;
    conditions: unknown;
    decision?: { pluginId?: string; resourceType?: string };
  }> = (
    [
      ['an unknown rule', leaf('IS_FRIEND_OF', { who: 'x' })],
      ['an unknown rule under not', { not: leaf('IS_FRIEND_OF', {}) }],
      [
        'an unknown rule beside a valid one in anyOf',
        { anyOf: [leaf('HAS_TAG', { tag: 'public' }), leaf('NOPE', {})] },
      ],
      [
        'a misspelt parameter under not',
        { not: leaf('HAS_LABEL', { label: 'tier', valeu: 'gold' }) },
      ],
      ['a missing parameter', leaf('IS_ENTITY_OWNER', {})],
      [
        'claims that are not a list',
        leaf('IS_ENTITY_OWNER', { claims: 'group:default/team-a' }),
      ],
      ['params that are not an object', leaf('HAS_TAG', 'public')],
      ['an empty tag', { not: leaf('HAS_TAG', { tag: '' }) }],
      [
        'a foreign resource type on a leaf',
        {
          not: {
            rule: 'HAS_TAG',
            resourceType: 'catalog-entity',
            params: { tag: 'public' },
          },
        },
      ],
      [
        'an extra key on a leaf',
        { not: leaf('HAS_TAG', { tag: 'public' }, { sql: 'true' }) },
      ],
      ['an empty anyOf', { anyOf: [] }],
      ['an empty allOf', { allOf: [] }],
      ['an empty allOf under not', { not: { allOf: [] } }],
      [
        'an operator with extra keys',
        {
          anyOf: [leaf('HAS_TAG', { tag: 'public' })],
          not: leaf('HAS_TAG', { tag: 'x' }),
        },
      ],
      ['null conditions', null],
      ['a list as conditions', [leaf('HAS_TAG', { tag: 'public' })]],
      ['a string as conditions', 'true'],
      [
        'nesting deeper than allowed',
        Array.from({ length: 40 }).reduce<unknown>(
          inner => ({ not: inner }),
          leaf('HAS_TAG', { tag: 'public' }),
        ),
      ],
      [
        'a decision for another plugin',
        { not: leaf('HAS_TAG', { tag: 'nothing-has-this' }) },
        { pluginId: 'catalog' },
      ],
      [
        'a decision for another resource type',
        { not: leaf('HAS_TAG', { tag: 'nothing-has-this' }) },
        { resourceType: 'catalog-entity' },
      ],
    ] as Array<[string, unknown, { pluginId?: string; resourceType?: string }?]>
  ).map(([name, conditions, decision]) => ({ name, conditions, decision }));

  it.each(malformed)(
    'sees nothing for a policy with $name',
    async ({ conditions, decision }) => {
      const visibility = await visibilityOf(
        policyService(conditions, decision),
      );
      expect(visibility.summary().decision).toBe('deny');
      const question = `handbook ${fixtures
        .map(f => f.marker)
        .join(' ')} ${typoOf(fixtures[0].marker)}`;
      const stats = await keywordStatistics({
        reader: new IndexReader(db.knex, visibility),
        queryTokens: tokensOf(question),
      });
      expect(stats.visibleChunks).toBe(0);
      expect(stats.tokens.every(t => t.df === 0 && t.match === 'none')).toBe(
        true,
      );
      expect(
        await suggestCorrections({
          reader: new IndexReader(db.knex, visibility),
          queryTokens: tokensOf(typoOf(fixtures[0].marker)),
        }),
      ).toEqual([]);
      for (const mode of ['hybrid', 'vector', 'keyword'] as RetrievalMode[]) {
        const result = await retrieveAll(visibility, question, mode);
        expect(result.chunks).toEqual([]);
        expect(result.corrections).toEqual([]);
        expect(result.candidatesConsidered).toBe(0);
      }
    },
  );

  it(`the same tree with only valid rules does see something (the malformed cases are not \
vacuous)`, async () => {
    const visibility = await visibilityOf(
      policyService({ not: leaf('HAS_TAG', { tag: 'nothing-has-this' }) }),
    );
    const stats = await keywordStatistics({
      reader: new IndexReader(db.knex, visibility),
      queryTokens: tokensOf('handbook'),
    });
    expect(stats.visibleChunks).toBe(chunks.length);
  });
});
