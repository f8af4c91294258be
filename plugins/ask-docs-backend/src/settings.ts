import { Config, readDurationFromConfig } from '@backstage/config';
import { durationToMilliseconds, HumanDuration } from '@backstage/types';
import { readSchedulerServiceTaskScheduleDefinitionFromConfig, SchedulerServiceTaskScheduleDefinition } from '@backstage/backend-plugin-api';
import { AnswerOptions } from './answer';
import { readAnswerOptions } from './answer/readAnswerOptions';
import { readFusionWeights, readRelevanceThresholds } from './retrieval';
import { RetrievalSettings } from './service/AskService';
import type { EmbedderKind } from './embedding';

export interface PluginSettings {
  languages: string[];
  hunspell: { [lang: string]: { affPath: string; dicPath: string } | undefined };
  ingestion: {
    schedule: SchedulerServiceTaskScheduleDefinition;
    maxPageChars?: number;
    maxChunkChars?: number;
    concurrency?: number;
  };
  answer: AnswerOptions;
  retentionDays: number;
  /** Superseded chunk versions older than this are deleted unless a kept answer cites them. */
  chunkVersionRetentionDays: number;
  visibilitySync: VisibilitySyncSettings;
  maxQuestionChars: number;
  /** Distinct content words per question; AskService's default when unset. */
  maxQueryTerms?: number;
  /** maintenance_work_mem for HNSW builds; ensureVectorIndex's default when unset. */
  hnswBuildMemory?: string;
}

export interface VisibilitySyncSettings {
  /** Off: no sync task and no freshness guard (attributes then change with ingestion runs only). */
  enabled: boolean;
  frequency: HumanDuration;
  /** Older attributes make everything invisible (fail closed). */
  maxStalenessSeconds: number;
}

function readVisibilitySync(c: Config | undefined): VisibilitySyncSettings {
  const vc = c?.getOptionalConfig('visibilitySync');
  const duration = (key: string, fallback: HumanDuration) =>
    vc?.has(key) ? readDurationFromConfig(vc, { key }) : fallback;
  const frequency = duration('frequency', { seconds: 30 });
  const maxStaleness = duration('maxStaleness', { seconds: 90 });
  const maxStalenessSeconds = durationToMilliseconds(maxStaleness) / 1000;
  const frequencySeconds = durationToMilliseconds(frequency) / 1000;
  if (!(frequencySeconds > 0) || !(maxStalenessSeconds > frequencySeconds)) {
    // A bound below one sync interval would hide everything between two successful syncs.
    throw new Error(
      `askDocs.visibilitySync: maxStaleness (${maxStalenessSeconds} s) must be longer than ` +
        `frequency (${frequencySeconds} s)`,
    );
  }
  return { enabled: vc?.getOptionalBoolean('enabled') ?? true, frequency, maxStalenessSeconds };
}

function positiveNumber(c: Config | undefined, key: string, fallback: number): number {
  const value = c?.getOptionalNumber(key) ?? fallback;
  if (!(value > 0)) {
    throw new Error(`askDocs.${key} must be a positive number, got ${value}`);
  }
  return value;
}

export function readPluginSettings(config: Config): PluginSettings {
  const c = config.getOptionalConfig('askDocs');
  const languages = c?.getOptionalStringArray('languages') ?? ['en', 'cs'];
  const hunspell: PluginSettings['hunspell'] = {};
  const hc = c?.getOptionalConfig('hunspell');
  for (const lang of hc?.keys() ?? []) {
    hunspell[lang] = { affPath: hc!.getString(`${lang}.affPath`), dicPath: hc!.getString(`${lang}.dicPath`) };
  }
  const ic = c?.getOptionalConfig('ingestion');
  const schedule = ic?.has('schedule')
    ? readSchedulerServiceTaskScheduleDefinitionFromConfig(ic.getConfig('schedule'))
    : { frequency: { minutes: 30 }, timeout: { minutes: 30 }, initialDelay: { seconds: 10 } };
  return {
    languages,
    hunspell,
    ingestion: {
      schedule,
      maxPageChars: ic?.getOptionalNumber('maxPageChars'),
      maxChunkChars: ic?.getOptionalNumber('maxChunkChars'),
      concurrency: ic?.getOptionalNumber('concurrency'),
    },
    answer: readAnswerOptions(config),
    retentionDays: c?.getOptionalNumber('answer.retention.days') ?? 365,
    chunkVersionRetentionDays: positiveNumber(c, 'retention.chunkVersionsDays', 90),
    visibilitySync: readVisibilitySync(c),
    maxQuestionChars: c?.getOptionalNumber('answer.maxQuestionChars') ?? 2000,
    maxQueryTerms: c?.getOptionalNumber('answer.maxQueryTerms'),
    hnswBuildMemory: c?.getOptionalString('retrieval.hnswBuildMemory'),
  };
}

export function readRetrievalSettings(
  config: Config,
  embedder: { modelId: string; kind: EmbedderKind },
): RetrievalSettings {
  const c = config.getOptionalConfig('askDocs.retrieval');
  return {
    k: c?.getOptionalNumber('topK') ?? 8,
    candidates: c?.getOptionalNumber('candidates'),
    rrfK: c?.getOptionalNumber('rrfK'),
    thresholds: readRelevanceThresholds(config, embedder.modelId),
    weights: readFusionWeights(config, embedder),
  };
}
