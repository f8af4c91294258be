/*
 * A model id stands for one model: when the files under an id are replaced by a model with
 * another output size, its stored vectors cannot be compared with new ones. Start-up and every
 * run fail with a message saying what to do, instead of vector search silently finding nothing.
 */
import { useTestDatabase } from '../testUtils/testDatabase';
import { DatabaseAskDocsStore } from './DatabaseAskDocsStore';

describe('registerModel', () => {
  const db = useTestDatabase();

  it('registers a model once, and refuses the same id with another dimension', async () => {
    const store = new DatabaseAskDocsStore(db.knex);
    const model = {
      modelId: 'local/e5-small',
      dimension: 384,
      kind: 'transformers',
    };
    await store.registerModel(model);
    await store.registerModel(model);
    const dimensions = () =>
      db
        .knex('ask_docs_models')
        .where({ model_id: model.modelId })
        .pluck('dimension');
    expect(await dimensions()).toEqual([384]);
    await expect(
      store.registerModel({ ...model, dimension: 768 }),
    ).rejects.toThrow(
      /e5-small gives vectors of dimension 768, but the index holds .* dimension 384/,
    );
    // Nothing changed: the index's model keeps its dimension, another id registers as usual.
    expect(await dimensions()).toEqual([384]);
    await store.registerModel({
      ...model,
      modelId: 'local/e5-base',
      dimension: 768,
    });
  });
});
