/*
 * Refs and attribute values are case-folded once, in JavaScript, on both sides of every
 * comparison (matchKeys.ts): the database's lower() (collation/ctype dependent; C in PGlite,
 * where it folds ASCII only) is never used, so non-ASCII owners match exactly when the catalog
 * would match them, and a folding that is too generous (Turkish dotless ı) cannot widen access.
 */
import { seedNotesPerEntity } from '../retrieval/testUtils/seed';
import { cond } from '../testUtils/fakePermissions';
import { fakeVisibility } from '../testUtils/fakeVisibility';
import { startTestDatabase, TestDatabase } from '../testUtils/testDatabase';
import { TestEntity, visibleInBoth } from '../testUtils/visibleInBoth';
import { askDocsChunkRuleDefinitions } from './rules';

const ILKER_DOC = 'component:default/ilker-notes';
const STREET_DOC = 'component:default/strasse';
const GREEK_DOC = 'component:default/odos';
const CITY_DOC = 'component:default/city';

const entities: TestEntity[] = [
  { entityRef: ILKER_DOC, owners: ['user:default/İlker'] },
  { entityRef: STREET_DOC, owners: ['group:default/STRAẞE'] },
  { entityRef: GREEK_DOC, owners: ['group:default/ΟΔΟΣ'] },
  {
    entityRef: CITY_DOC,
    labels: { Şehir: 'İSTANBUL' },
    spec: { Region: 'İç Anadolu' },
  },
];

let db: TestDatabase;

beforeAll(async () => {
  db = await startTestDatabase();
  await seedNotesPerEntity(db.knex, entities);
}, 60_000);
afterAll(async () => {
  await db?.stop();
});

async function visibleTo(
  rule: string,
  params: Record<string, unknown>,
): Promise<string[]> {
  const visibility = await fakeVisibility({
    chunk: { conditions: cond('ask-docs-chunk', rule, params) },
  });
  // The in-memory rule (`apply`) agrees with SQL on every entity.
  const filter = askDocsChunkRuleDefinitions.get(rule)!.toFilter(params);
  return visibleInBoth(db.knex, visibility, entities, filter);
}

const ownedBy = (claim: string) =>
  visibleTo('IS_ENTITY_OWNER', { claims: [claim] });

describe('case folding of refs and attributes', () => {
  it('an owner with a dotted capital İ sees their entity, in any case of the claim', async () => {
    expect(await ownedBy('user:default/İlker')).toEqual([ILKER_DOC]);
    expect(await ownedBy('USER:DEFAULT/İLKER')).toEqual([ILKER_DOC]);
  });

  it('users whose names only match under another folding do not', async () => {
    expect(await ownedBy('user:default/ilker')).toEqual([]); // İ folds to i + combining dot
    expect(await ownedBy('user:default/ılker')).toEqual([]); // Turkish dotless ı
    expect(await ownedBy('user:default/Ilker')).toEqual([]);
  });

  it('a group named with capital ẞ or final sigma matches its own folding only', async () => {
    expect(await ownedBy('group:default/straße')).toEqual([STREET_DOC]);
    expect(await ownedBy('group:default/STRAẞE')).toEqual([STREET_DOC]);
    expect(await ownedBy('group:default/strasse')).toEqual([]);
    expect(await ownedBy('group:default/οδος')).toEqual([GREEK_DOC]);
    expect(await ownedBy('group:default/ΟΔΟΣ')).toEqual([GREEK_DOC]);
    expect(await ownedBy('group:default/οδοσ')).toEqual([]);
  });

  it('label keys and values with non-ASCII letters fold the same way', async () => {
    const folded = { label: 'şehir', value: 'i̇stanbul' };
    expect(await visibleTo('HAS_LABEL', folded)).toEqual([CITY_DOC]);
    expect(await visibleTo('HAS_LABEL', { label: 'ŞEHİR' })).toEqual([]); // İ ≠ I
    expect(
      await visibleTo('HAS_LABEL', { label: 'Şehir', value: 'istanbul' }),
    ).toEqual([]);
  });
});
