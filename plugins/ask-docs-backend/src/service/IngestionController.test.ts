import { mockServices } from '@backstage/backend-test-utils';
import { AskDocsStore } from '../database/AskDocsStore';
import { HashingEmbedder } from '../embedding';
import { createLanguageAnalyzers } from '../language';
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

describe('IngestionController.start', () => {
  const failure = new Error('connect ECONNREFUSED (ask_docs_ingestion_runs)');

  it('answers with the failure of a run that could not even be recorded', async () => {
    const analyzers = await createLanguageAnalyzers({ languages: ['en'] });
    const startRun = jest.fn(async () => 1);
    const store = {
      registerModel: async () => {},
      databaseNow: async () => {
        throw failure;
      },
      startRun,
    } as unknown as AskDocsStore;
    const ingester = new Ingester({
      store,
      entities: { async *listEntities() {} },
      techdocs: { getSite: async () => undefined, getPage: async () => '' },
      embedder: new HashingEmbedder({ analyzers }),
      analyzers,
      languages: ['en'],
      logger: mockServices.logger.mock(),
    });
    const controller = new IngestionController(
      store,
      ingester,
      new AskDocsAuthorizer(fakePermissions({})),
    );
    await expect(controller.start()).rejects.toBe(failure);
    // Nothing was left 'running' for the panel to wait on, and the next start may run.
    expect(startRun).not.toHaveBeenCalled();
    expect(ingester.isRunning()).toBe(false);
  });
});
