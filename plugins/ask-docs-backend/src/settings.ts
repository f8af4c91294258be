import { Config } from '@backstage/config';
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
  maxQuestionChars: number;
  /** maintenance_work_mem for HNSW builds; ensureVectorIndex's default when unset. */
  hnswBuildMemory?: string;
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
    maxQuestionChars: c?.getOptionalNumber('answer.maxQuestionChars') ?? 2000,
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
