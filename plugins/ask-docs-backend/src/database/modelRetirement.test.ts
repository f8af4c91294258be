/*
 * Vectors of an embedding model no instance runs any more are deleted after
 * askDocs.retention.unusedModelDays: every instance registers its model at start, each run and
 * hourly, and the daily retention retires models not registered within the window, never the
 * caller's own. Before, a change of models left the old vectors (and their HNSW index) forever.
 */
import { entityRowOf, pageWriteOf } from '../testUtils/indexFixtures';
import { useTestDatabase } from '../testUtils/testDatabase';
import { DatabaseAskDocsStore } from './DatabaseAskDocsStore';
import { ensureVectorIndex, vectorIndexName } from './vectorIndex';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
const ENTITY = 'component:default/till';
const models = ['current', 'replaced', 'other-replica'].map(id => ({
  modelId: id,
  dimension: 2,
  kind: 'hashing-fallback',
}));
const [current, replaced, otherReplica] = models;

describe('retireUnusedModels', () => {
  const db = useTestDatabase();
  let store: DatabaseAskDocsStore;

  beforeEach(async () => {
    store = new DatabaseAskDocsStore(db.knex);
    await db.knex('ask_docs_embeddings').delete();
    await db.knex('ask_docs_models').delete();
    await store.upsertEntity(entityRowOf(ENTITY));
    const page = pageWriteOf(ENTITY, 'deploy.html', [
      'deploy the till',
      'roll back',
    ]);
    // The same chunks embedded by each model, each with its own HNSW index.
    for (const model of models) {
      await store.registerModel(model);
      await ensureVectorIndex(db.knex, model.modelId, model.dimension);
      const vectors = new Map(page.chunks.map(c => [c.chunkId, [1, 0]]));
      await store.replaceDocument(page.doc, page.chunks, vectors, model);
    }
  });

  const lastUsed = (modelId: string, at: Date) =>
    db
      .knex('ask_docs_models')
      .where({ model_id: modelId })
      .update({ last_used_at: at });
  const vectorsOf = async (modelId: string) =>
    Number(
      (
        await db
          .knex('ask_docs_embeddings')
          .where({ model_id: modelId })
          .count({ n: '*' })
      )[0].n,
    );
  const indexed = async (modelId: string) =>
    (
      await db.knex.raw('SELECT 1 FROM pg_indexes WHERE indexname = ?', [
        vectorIndexName(modelId, 2),
      ])
    ).rows.length > 0;

  it('deletes the vectors, index and row of a model unused for the window, no other', async () => {
    await lastUsed(replaced.modelId, daysAgo(10));
    await lastUsed(otherReplica.modelId, daysAgo(1));
    // The caller's own model is kept however long ago it was recorded.
    await lastUsed(current.modelId, daysAgo(30));

    expect(
      await store.retireUnusedModels({
        unusedDays: 7,
        keep: [current.modelId],
      }),
    ).toEqual([{ modelId: replaced.modelId, vectors: 2 }]);

    expect(await vectorsOf(replaced.modelId)).toBe(0);
    expect(await indexed(replaced.modelId)).toBe(false);
    expect(
      await db.knex('ask_docs_models').orderBy('model_id').pluck('model_id'),
    ).toEqual([current.modelId, otherReplica.modelId]);
    for (const kept of [current, otherReplica]) {
      expect(await vectorsOf(kept.modelId)).toBe(2);
      expect(await indexed(kept.modelId)).toBe(true);
    }
    // The chunks themselves stay: only the vectors were the retired model's.
    expect(
      Number((await db.knex('ask_docs_chunks').count({ n: '*' }))[0].n),
    ).toBe(2);
  });

  it('keeps a model an instance registered again within the window', async () => {
    await lastUsed(replaced.modelId, daysAgo(10));
    // An instance still running the model confirms it (hourly, at start, at each run).
    await store.registerModel(replaced);
    expect(
      await store.retireUnusedModels({
        unusedDays: 7,
        keep: [current.modelId],
      }),
    ).toEqual([]);
    expect(await vectorsOf(replaced.modelId)).toBe(2);
    expect(await indexed(replaced.modelId)).toBe(true);
  });

  it('lets a retired model come back: registered again, it is embedded afresh', async () => {
    await lastUsed(replaced.modelId, daysAgo(10));
    await store.retireUnusedModels({
      unusedDays: 7,
      keep: [current.modelId],
    });
    await store.registerModel(replaced);
    await ensureVectorIndex(db.knex, replaced.modelId, replaced.dimension);
    expect(await indexed(replaced.modelId)).toBe(true);
    // The page counts as not embedded by it (as by the model kept, it does): the next run of an
    // instance with the model embeds every chunk again.
    const page = pageWriteOf(ENTITY, 'deploy.html', [
      'deploy the till',
      'roll back',
    ]);
    const embedded = async (modelId: string) =>
      (await store.documentStates(ENTITY, modelId)).get(page.doc.documentId)
        ?.embedded;
    expect(await embedded(replaced.modelId)).toBe(false);
    expect(await embedded(current.modelId)).toBe(true);
  });

  it('keeps every model named in keep, also one no instance registered for long', async () => {
    // An instance on the fallback keeps the model it is configured with.
    await lastUsed(replaced.modelId, daysAgo(30));
    expect(
      await store.retireUnusedModels({
        unusedDays: 7,
        keep: [current.modelId, replaced.modelId],
      }),
    ).toEqual([]);
    expect(await vectorsOf(replaced.modelId)).toBe(2);
  });
});
