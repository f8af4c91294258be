import type { SchedulerServiceTaskScheduleDefinition } from '@backstage/backend-plugin-api';
import { mockServices } from '@backstage/backend-test-utils';
import {
  deleteExpired,
  MaintenanceOptions,
  scheduleMaintenance,
} from './maintenance';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-06-01T12:00:00Z');

function fakeStore(calls: string[]) {
  return {
    deleteAnswersBefore: jest.fn(async (_: Date) => {
      calls.push('answers');
      return 2;
    }),
    deleteChunkVersions: jest.fn(async (_: object) => {
      calls.push('versions');
      return 0;
    }),
    retireUnusedModels: jest.fn(
      async (_: { unusedDays: number; keep: readonly string[] }) => {
        calls.push('models');
        return [{ modelId: 'old-model', vectors: 7 }];
      },
    ),
  };
}

function options(
  provider: 'transformers' | 'hashing',
  calls: string[] = [],
): Omit<MaintenanceOptions, 'scheduler' | 'recordModelInUse'> & {
  store: ReturnType<typeof fakeStore>;
} {
  return {
    store: fakeStore(calls),
    logger: mockServices.logger.mock(),
    settings: {
      answer: { retentionDays: 30 },
      retention: { chunkVersionsDays: 90, unusedModelDays: 7 },
      embeddings: { provider, model: 'Xenova/configured-model' },
    },
    modelId: 'hashing-fallback-v2-en+cs-384',
  };
}

describe('deleteExpired', () => {
  it('deletes answers first, then the versions only they cited, then unused models', async () => {
    const calls: string[] = [];
    const o = options('transformers', calls);
    await deleteExpired(o, NOW);

    expect(calls).toEqual(['answers', 'versions', 'models']);
    const cutoff = new Date(NOW.getTime() - 30 * DAY_MS);
    expect(o.store.deleteAnswersBefore).toHaveBeenCalledWith(cutoff);
    expect(o.store.deleteChunkVersions).toHaveBeenCalledWith({
      supersededBefore: new Date(NOW.getTime() - 90 * DAY_MS),
      keepAnswersSince: cutoff,
    });
    expect(o.logger.info).toHaveBeenCalledWith(
      expect.stringContaining('deleted 7 vectors of embedding model old-model'),
    );
  });

  it('keeps the configured model while this instance runs on the fallback', async () => {
    const o = options('transformers');
    await deleteExpired(o, NOW);
    expect(o.store.retireUnusedModels).toHaveBeenCalledWith({
      unusedDays: 7,
      keep: ['hashing-fallback-v2-en+cs-384', 'Xenova/configured-model'],
    });
  });

  it('keeps only the running model when the hashing embedder was chosen', async () => {
    const o = options('hashing');
    await deleteExpired(o, NOW);
    const { keep } = o.store.retireUnusedModels.mock.calls[0][0];
    expect(keep).toEqual(['hashing-fallback-v2-en+cs-384']);
    expect(keep).not.toContain('Xenova/configured-model');
  });

  it('deletes no chunk version or model when deleting answers fails', async () => {
    const o = options('transformers');
    o.store.deleteAnswersBefore.mockRejectedValueOnce(new Error('db down'));
    await expect(deleteExpired(o, NOW)).rejects.toThrow('db down');
    expect(o.store.deleteChunkVersions).not.toHaveBeenCalled();
    expect(o.store.retireUnusedModels).not.toHaveBeenCalled();
  });
});

describe('scheduleMaintenance', () => {
  async function scheduled(recordModelInUse: () => Promise<void>) {
    const tasks = new Map<
      string,
      SchedulerServiceTaskScheduleDefinition & { fn: any; id: string }
    >();
    const scheduler = mockServices.scheduler.mock({
      scheduleTask: jest.fn(async (task: any) => {
        tasks.set(task.id, task);
      }),
    });
    const o = options('transformers');
    await scheduleMaintenance({ ...o, scheduler, recordModelInUse });
    return { tasks, logger: o.logger, store: o.store };
  }

  it('marks the model in use on every instance, and says why when that fails', async () => {
    const record = jest.fn().mockRejectedValue(new Error('no such table'));
    const { tasks, logger } = await scheduled(record);
    const inUse = tasks.get('ask-docs-model-in-use')!;
    expect(inUse.scope).toBe('local');
    await expect(inUse.fn()).rejects.toThrow('no such table');
    expect(record).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining(
        'could not record embedding model hashing-fallback-v2-en+cs-384 as in use',
      ),
    );
  });

  it('runs retention once across instances (not a local task)', async () => {
    const { tasks, store } = await scheduled(async () => {});
    const retention = tasks.get('ask-docs-answer-retention')!;
    expect(retention.scope).toBeUndefined();
    await retention.fn();
    expect(store.deleteAnswersBefore).toHaveBeenCalledTimes(1);
  });
});
