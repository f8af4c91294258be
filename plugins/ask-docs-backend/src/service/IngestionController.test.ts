import { AskDocsStore } from '../database/AskDocsStore';
import { Ingester } from '../ingestion/Ingester';
import { fakePermissions } from '../testUtils/fakePermissions';
import { AskDocsAuthorizer } from './authorization';
import { IngestionController } from './IngestionController';

describe('IngestionController.progress', () => {
  it('reports idle with every counter at zero before the first run', async () => {
    const store = {
      latestRun: async () => undefined,
    } as unknown as AskDocsStore;
    const controller = new IngestionController(
      store,
      {} as Ingester,
      new AskDocsAuthorizer(fakePermissions({})),
    );
    const { runId, status, errors, ...counters } = await controller.progress();
    expect({ runId, status, errors }).toEqual({
      runId: null,
      status: 'idle',
      errors: [],
    });
    // Every counter of the wire type is there (the panel shows each one), at zero.
    expect(Object.keys(counters).sort().join(' ')).toBe(
      'chunksDeleted chunksEmbedded chunksReanalysed chunksWritten ' +
        'entitiesDone pagesDone pagesSkipped',
    );
    expect(Object.values(counters).every(v => v === 0)).toBe(true);
  });
});
