/*
 * The resource loader finds entities by folded ref. When an entity's ref changes letter case in
 * the catalog, the old row stays live beside the new one until the next sync: a ref that two
 * rows answer must not be judged by whichever row the database returned last.
 */
import {
  clearIndex,
  seedNotesPerEntity,
  SeedEntity,
} from '../retrieval/testUtils/seed';
import { useTestDatabase } from '../testUtils/testDatabase';
import { createAskDocsChunkResourceLoader } from './chunkResourceLoader';

const OLD = 'component:default/Payments';
const NEW = 'component:default/payments';
const OTHER = 'component:default/search';

describe('chunk resource loader', () => {
  const db = useTestDatabase();

  const seed = async (entities: SeedEntity[]) => {
    await clearIndex(db.knex);
    return seedNotesPerEntity(db.knex, entities);
  };
  const load = (refs: string[]) =>
    createAskDocsChunkResourceLoader(db.knex)(refs);

  it('denies a ref that two live rows with different attributes answer', async () => {
    const chunks = await seed([
      { entityRef: OLD, owners: ['group:default/old-team'] },
      { entityRef: NEW, owners: ['group:default/new-team'] },
      { entityRef: OTHER, owners: ['group:default/old-team'] },
    ]);
    const [oldChunk] = chunks[`doc:${OLD}:${OLD}`];
    const [byOld, byNew, byFolded, other, byChunk] = await load([
      OLD,
      NEW,
      NEW.toUpperCase(),
      OTHER,
      oldChunk,
    ]);
    expect([byOld, byNew, byFolded]).toEqual([undefined, undefined, undefined]);
    expect(other?.entityRef).toBe(OTHER);
    // A chunk id names its own row exactly, as the SQL predicate judges the chunk.
    expect(byChunk?.owners).toEqual(['group:default/old-team']);
  });

  it('resolves such a ref when the rows would decide every rule alike', async () => {
    await seed([
      { entityRef: OLD, owners: ['group:default/Team'], tags: ['a', 'b'] },
      { entityRef: NEW, owners: ['group:default/team'], tags: ['b', 'a'] },
    ]);
    const [byOld, byNew] = await load([OLD, NEW]);
    expect(byOld?.entityRef.toLowerCase()).toBe(NEW);
    expect(byNew?.entityRef.toLowerCase()).toBe(NEW);
  });
});
