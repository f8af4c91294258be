/*
 * The catalog answers its HAS_* conditions from its search table (buildEntitySearch in
 * plugin-catalog-backend), which lower-cases keys (`metadata.annotations.<key>`,
 * `metadata.labels.<key>`, `spec.<path>`) and values, drops keys longer than 200 characters
 * and stores values longer than 200 as null. Translated catalog conditions must match exactly
 * what the catalog matches: no entity through a key or value the table does not hold.
 */
import { seedNotesPerEntity } from '../retrieval/testUtils/seed';
import { cond } from '../testUtils/fakePermissions';
import { fakeVisibility } from '../testUtils/fakeVisibility';
import { useTestDatabase } from '../testUtils/testDatabase';
import { TestEntity, visibleInBoth } from '../testUtils/visibleInBoth';
import { translateCatalogConditions } from './catalogConditions';
import { askDocsChunkRuleDefinitions } from './rules';

const LONG = 'component:default/long';
const OTHER = 'component:default/other';

// A label or annotation key as the catalog allows it: a DNS prefix (up to 253) and a name.
const PREFIX = `${'a'.repeat(63)}.${'b'.repeat(63)}.example.com/`; // 140 characters
// 'metadata.annotations.' is 21 characters, 'metadata.labels.' 16, 'spec.' 5.
const ANNOTATION_200 = `${PREFIX}${'n'.repeat(39)}`;
const ANNOTATION_201 = `${PREFIX}${'m'.repeat(40)}`;
const LABEL_201 = `${PREFIX}${'l'.repeat(45)}`;
const SPEC_200 = 'j'.repeat(195);
const SPEC_201 = 'k'.repeat(196);
const API = 'a'.repeat(190); // a value of 190, but `spec.providesapis.<api>` is 208
const V201 = 'v'.repeat(201);
// 'İ' lower-cases to two characters (i + combining dot): the limit counts the folded value.
const DOTTED_100 = 'İ'.repeat(100);
const DOTTED_101 = 'İ'.repeat(101);

const entities: TestEntity[] = [
  {
    entityRef: LONG,
    labels: { [LABEL_201]: 'gold' },
    annotations: {
      'example.com/long': V201,
      'example.com/value-200': 'w'.repeat(200),
      'example.com/dotted-100': DOTTED_100,
      'example.com/dotted-101': DOTTED_101,
      [ANNOTATION_200]: 'x',
      [ANNOTATION_201]: 'x',
    },
    spec: {
      long: V201,
      [SPEC_200]: 'x',
      [SPEC_201]: 'x',
      providesApis: [API],
    },
  },
  { entityRef: OTHER },
];

const db = useTestDatabase({ timeoutMs: 60_000 });
beforeAll(async () => {
  await seedNotesPerEntity(db.knex, entities);
});

/** What a catalog.entity.read decision with these conditions shows, in SQL and in memory. */
async function visibleTo(conditions: unknown): Promise<string[]> {
  const visibility = await fakeVisibility({ catalog: { conditions } });
  const criteria = translateCatalogConditions(conditions);
  return visibleInBoth(db.knex, visibility, entities, criteria);
}

const catalogCond = (rule: string, params: Record<string, unknown>) =>
  cond('catalog-entity', rule, params);

describe('catalog conditions over keys and values the search table does not hold', () => {
  it.each<[string, string, Record<string, unknown>, string[]]>([
    // A long value is stored as null: the key is there, the value matches nothing.
    [
      'long value, any',
      'HAS_ANNOTATION',
      { annotation: 'example.com/long' },
      [LONG],
    ],
    [
      'long value',
      'HAS_ANNOTATION',
      { annotation: 'example.com/long', value: V201 },
      [],
    ],
    [
      'value of 200',
      'HAS_ANNOTATION',
      { annotation: 'example.com/value-200', value: 'W'.repeat(200) },
      [LONG],
    ],
    [
      'value of 200 folded',
      'HAS_ANNOTATION',
      { annotation: 'example.com/dotted-100', value: DOTTED_100 },
      [LONG],
    ],
    [
      'value of 202 folded',
      'HAS_ANNOTATION',
      { annotation: 'example.com/dotted-101', value: DOTTED_101 },
      [],
    ],
    [
      'value of 202 folded, any',
      'HAS_ANNOTATION',
      { annotation: 'example.com/dotted-101' },
      [LONG],
    ],
    // A long key is not stored at all.
    [
      'annotation key of 200',
      'HAS_ANNOTATION',
      { annotation: ANNOTATION_200 },
      [LONG],
    ],
    [
      'annotation key of 201',
      'HAS_ANNOTATION',
      { annotation: ANNOTATION_201 },
      [],
    ],
    [
      'annotation key of 201, with value',
      'HAS_ANNOTATION',
      { annotation: ANNOTATION_201, value: 'x' },
      [],
    ],
    [
      'metadata key of 200',
      'HAS_METADATA',
      { key: `annotations.${ANNOTATION_200}` },
      [LONG],
    ],
    [
      'metadata key of 201',
      'HAS_METADATA',
      { key: `annotations.${ANNOTATION_201}` },
      [],
    ],
    ['label key of 201', 'HAS_LABEL', { label: LABEL_201 }, []],
    [
      'label key of 201, with value',
      'HAS_LABEL',
      { label: LABEL_201, value: 'gold' },
      [],
    ],
    [
      'metadata label key of 201',
      'HAS_METADATA',
      { key: `labels.${LABEL_201}`, value: 'gold' },
      [],
    ],
    ['spec, long value, any', 'HAS_SPEC', { key: 'long' }, [LONG]],
    ['spec, long value', 'HAS_SPEC', { key: 'long', value: V201 }, []],
    ['spec key of 200', 'HAS_SPEC', { key: SPEC_200 }, [LONG]],
    ['spec key of 201', 'HAS_SPEC', { key: SPEC_201 }, []],
    [
      'spec array item',
      'HAS_SPEC',
      { key: 'providesApis', value: API },
      [LONG],
    ],
    [
      'spec array item key of 208',
      'HAS_SPEC',
      { key: `providesApis.${API}` },
      [],
    ],
    [
      'kinds, one long',
      'IS_ENTITY_KIND',
      { kinds: [V201, 'component'] },
      [LONG, OTHER],
    ],
    ['kinds, all long', 'IS_ENTITY_KIND', { kinds: [V201] }, []],
  ])('%s (%s)', async (_, rule, params, expected) => {
    expect(await visibleTo(catalogCond(rule, params))).toEqual(expected);
  });

  it('match everything under not, as in the catalog', async () => {
    const absent = catalogCond('HAS_ANNOTATION', {
      annotation: ANNOTATION_201,
    });
    expect(await visibleTo({ not: absent })).toEqual([LONG, OTHER]);
  });

  it("leave ask-docs' own rules comparing the whole attributes", async () => {
    const visibility = await fakeVisibility({
      chunk: {
        conditions: cond('ask-docs-chunk', 'HAS_ANNOTATION', {
          annotation: ANNOTATION_201,
        }),
      },
    });
    const filter = askDocsChunkRuleDefinitions
      .get('HAS_ANNOTATION')!
      .toFilter({ annotation: ANNOTATION_201 });
    expect(await visibleInBoth(db.knex, visibility, entities, filter)).toEqual([
      LONG,
    ]);
  });
});
