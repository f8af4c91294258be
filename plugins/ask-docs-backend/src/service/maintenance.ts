import type {
  LoggerService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type { AskDocsStore } from '../database/AskDocsStore';
import type {
  AnswerSettings,
  AskDocsConfig,
  EmbeddingSettings,
} from '../settings';

const DAY_MS = 86_400_000;

export interface MaintenanceOptions {
  scheduler: SchedulerService;
  store: Pick<
    AskDocsStore,
    'deleteAnswersBefore' | 'deleteChunkVersions' | 'retireUnusedModels'
  >;
  logger: LoggerService;
  settings: {
    answer: Pick<AnswerSettings, 'retentionDays'>;
    retention: Pick<
      AskDocsConfig['retention'],
      'chunkVersionsDays' | 'unusedModelDays'
    >;
    embeddings: Pick<EmbeddingSettings, 'provider' | 'model'>;
  };
  /** The model this instance embeds with (the fallback's id when it fell back). */
  modelId: string;
  /** Registers the model as in use and makes sure its vector index exists. */
  recordModelInUse(): Promise<void>;
}

/**
 * Schedules the plugin's housekeeping: every instance marks its embedding model as in use
 * hourly; once a day, one instance deletes expired answers, the chunk versions only they cited,
 * and the vectors of models no instance has run for `askDocs.retention.unusedModelDays`.
 */
export async function scheduleMaintenance(
  options: MaintenanceOptions,
): Promise<void> {
  const { scheduler, logger, modelId, recordModelInUse } = options;
  await scheduler.scheduleTask({
    id: 'ask-docs-model-in-use',
    // Every instance: each one's model is in use, so its vectors are kept.
    scope: 'local',
    frequency: { hours: 1 },
    timeout: { minutes: 30 },
    initialDelay: { minutes: 1 },
    // The scheduler keeps a local task's error to itself: say it here.
    fn: () =>
      recordModelInUse().catch(e => {
        logger.warn(
          `ask-docs: could not record embedding model ${modelId} as in use: ${e}`,
        );
        throw e;
      }),
  });
  await scheduler.scheduleTask({
    id: 'ask-docs-answer-retention',
    frequency: { hours: 24 },
    timeout: { minutes: 10 },
    initialDelay: { minutes: 1 },
    fn: () => deleteExpired(options),
  });
}

/** One retention pass, counting ages back from `now` (the backend's clock). */
export async function deleteExpired(
  options: Omit<MaintenanceOptions, 'scheduler' | 'recordModelInUse'>,
  now: Date = new Date(),
): Promise<void> {
  const { store, logger, settings, modelId } = options;
  const answerDays = settings.answer.retentionDays;
  const cutoff = new Date(now.getTime() - answerDays * DAY_MS);
  const answers = await store.deleteAnswersBefore(cutoff);
  if (answers)
    logger.info(
      `ask-docs: deleted ${answers} answer records older than ${answerDays} days`,
    );
  // After the answers: versions only the deleted answers cited go too.
  const versionDays = settings.retention.chunkVersionsDays;
  const versions = await store.deleteChunkVersions({
    supersededBefore: new Date(now.getTime() - versionDays * DAY_MS),
    keepAnswersSince: cutoff,
  });
  if (versions)
    logger.info(`ask-docs: deleted ${versions} superseded chunk versions`);
  const unusedDays = settings.retention.unusedModelDays;
  const { embeddings } = settings;
  const retired = await store.retireUnusedModels({
    unusedDays,
    // Also the configured model when this instance runs on the fallback: its files may be back
    // tomorrow, and re-embedding everything takes hours.
    keep: [
      modelId,
      ...(embeddings.provider === 'hashing' ? [] : [embeddings.model]),
    ],
  });
  for (const { modelId: retiredId, vectors } of retired)
    logger.info(
      `ask-docs: deleted ${vectors} vectors of embedding model ${retiredId}, ` +
        `which no instance has run for ${unusedDays} days`,
    );
}
