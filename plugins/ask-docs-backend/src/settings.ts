/**
 * The one reader of `askDocs.*` (schema: config.d.ts). Everything else takes a typed slice of
 * AskDocsConfig, so defaults and validation live here and bad config fails at start, naming
 * the key and what was expected. Keys are read by full path from the root config so that
 * settings.test.ts can record exactly which keys are read and compare them with config.d.ts.
 */
import path from 'node:path';
import { Config, readDurationFromConfig } from '@backstage/config';
import { durationToMilliseconds, HumanDuration } from '@backstage/types';
import {
  readSchedulerServiceTaskScheduleDefinitionFromConfig,
  SchedulerServiceTaskScheduleDefinition,
} from '@backstage/backend-plugin-api';
import { z } from 'zod';
import type { AnswerOptions } from './answer/answerQuestion';
import type { ChatModelOptions } from './answer/llm';
import type { ModelQuota } from './service/modelQuota';
import type { EmbedderKind } from './embedding/types';
import { DEFAULT_HASHING_DIMENSION } from './embedding/HashingEmbedder';
import { DEFAULT_EMBEDDING_MODEL } from './embedding/TransformersEmbedder';
import { DTYPE_SUFFIX } from './embedding/localModel';
import { DEFAULT_RERANK_CANDIDATES } from './embedding/reranker';
import {
  BUILT_IN_PROFILES,
  normalizeLanguage,
  type BilingualDictionaryFiles,
} from './language';
import {
  DEFAULT_FUSION_METHOD,
  FUSION_METHODS,
  FusionMethod,
  FusionWeights,
  readFusionWeights,
} from './retrieval/fusion';
import {
  readRelevanceThresholds,
  RelevanceThresholds,
} from './retrieval/relevance';
import type { EvidenceModel } from './retrieval/evidence';
import { FITTED_EVIDENCE_MODELS } from './retrieval/evidenceModel.fitted';
import { HNSW_BUILD_MEMORY_PATTERN } from './database/vectorIndex';
import { DEFAULT_MAX_CONTEXT_CHARS } from './answer/prompt';
import { DEFAULT_MAX_CHUNK_CHARS } from './ingestion/parsing/chunkSections';
import type { RetrievalSettings } from './service/AskService';
import {
  ADMINISTRATIVE_PERMISSION_NAMES,
  ServiceGrants,
} from './service/authorization';

/** `askDocs.retrieval.topK`'s default: chunks kept after fusion and filtering. */
export const DEFAULT_TOP_K = 8;

export const DEFAULT_LLM_TIMEOUT_MS = 30_000;
export const DEFAULT_LLM_MAX_RETRIES = 1;

/** Resolved `askDocs.embeddings`. */
export interface EmbeddingSettings {
  provider: 'transformers' | 'hashing';
  model: string;
  localModelPath: string;
  queryPrefix?: string;
  passagePrefix?: string;
  /** Dimension of the hashing embedder (also used when falling back to it). */
  dimension: number;
  batchSize?: number;
  maxTokens?: number;
  dtype?: string;
  /** Fall back to the hashing embedder when the model cannot be loaded. Default true. */
  allowFallback: boolean;
  /** False when nothing chose an embedder: the hashing embedder runs, labelled as a fallback. */
  configured: boolean;
}

/** Resolved `askDocs.retrieval.reranker`; absent = no reranker and nothing loaded. */
export interface RerankerSettings {
  /** Model id as laid out under localModelPath, e.g. "Xenova/ms-marco-MiniLM-L-6-v2". */
  model: string;
  /** Default: the embeddings' localModelPath. */
  localModelPath: string;
  /** Top fused chunks rescored per question (default DEFAULT_RERANK_CANDIDATES). */
  candidates: number;
  /** Tokens per (question, passage) pair; the passage is cut to fit (default 512). */
  maxTokens?: number;
  batchSize?: number;
  dtype?: string;
  /** Start without a reranker when it cannot be loaded (loudly). Default false: fail start. */
  allowFallback: boolean;
}

export interface IngestionSettings {
  schedule: SchedulerServiceTaskScheduleDefinition;
  /** Start a run at every start of the backend, not only at the first (the scheduler's). */
  runOnStart: boolean;
  maxPageChars?: number;
  maxChunkChars?: number;
  concurrency?: number;
}

/** Per embedding model id, with `default` for the others; fields override field by field. */
export type PerModel<T> = Readonly<Record<string, Partial<T>>>;

/** `askDocs.retrieval`; per-model values are resolved by resolveRetrievalSettings. */
export interface RetrievalConfig {
  topK: number;
  candidates?: number;
  rrfK?: number;
  thresholds: PerModel<RelevanceThresholds>;
  fusionWeights: PerModel<FusionWeights>;
  /** maintenance_work_mem for HNSW builds; ensureVectorIndex's default when unset. */
  hnswBuildMemory?: string;
  /**
   * 'thresholds' or 'fitted' (the logistic evidence model of decision record 0009); unset: the
   * fitted model for the embedding model it was fitted on, the thresholds for any other.
   */
  evidenceDecision?: 'thresholds' | 'fitted';
  /**
   * 'rrf' or 'scores' (fusion.ts); unset: DEFAULT_FUSION_METHOD for the embedder's kind (scores
   * for the hashing fallback). The title and phrase weights below apply to 'rrf' only.
   */
  fusion?: FusionMethod;
  /**
   * Share of the largest fused score that a section path naming every question word adds
   * (0 to 1; 0 turns the boost off); the retriever's DEFAULT_TITLE_WEIGHT when unset.
   */
  titleWeight?: number;
  /**
   * The same for a chunk in which the question's neighbouring words stand together (0 to 1);
   * the retriever's DEFAULT_PHRASE_WEIGHT when unset.
   */
  phraseWeight?: number;
  /**
   * Share of the fused score a release-notes chunk loses, with either fusion (0 to 1; 0 turns
   * it off); the retriever's DEFAULT_RELEASE_NOTES_PENALTY for the fusion method when unset.
   */
  releaseNotesPenalty?: number;
  /** The optional cross-encoder (QuestionPipeline); undefined when not configured. */
  reranker?: RerankerSettings;
}

export interface VisibilitySyncSettings {
  /** Off: no sync task and no freshness guard (attributes then change with ingestion runs only). */
  enabled: boolean;
  frequency: HumanDuration;
  /** Older attributes make everything invisible (fail closed). */
  maxStalenessSeconds: number;
}

/** What answerQuestion takes from config; unset keys keep answerQuestion's defaults. */
export type ConfiguredAnswerOptions = Pick<
  AnswerOptions,
  | 'maxContextChars'
  | 'maxBlocks'
  | 'maxEvidence'
  | 'verifyClaims'
  | 'minClaimOverlap'
>;

export interface AnswerSettings {
  options: ConfiguredAnswerOptions;
  /** Audit records older than this many days are deleted. */
  retentionDays: number;
  maxQuestionChars: number;
  /** Distinct content words per question; AskService's default when unset. */
  maxQueryTerms?: number;
}

export interface AskDocsConfig {
  languages: string[];
  hunspell: {
    [lang: string]: { affPath: string; dicPath: string } | undefined;
  };
  /** Word translations for questions (language/bilingualDictionary.ts); unset: none. */
  bilingualDictionary?: BilingualDictionaryFiles;
  embeddings: EmbeddingSettings;
  ingestion: IngestionSettings;
  retrieval: RetrievalConfig;
  visibilitySync: VisibilitySyncSettings;
  retention: {
    /** Superseded chunk versions older than this are deleted unless a kept answer cites them. */
    chunkVersionsDays: number;
    /** Vectors of a model no instance has run for this long are deleted. */
    unusedModelDays: number;
    /** An entity no longer in the catalog is hidden at once and deleted after this long. */
    removedEntityDays: number;
  };
  /** Undefined when no model is configured (section, model or apiKey missing). */
  llm: ChatModelOptions | undefined;
  /** `askDocs.llm.quotaPerUser`; undefined: no limit. */
  modelQuota: ModelQuota | undefined;
  answer: AnswerSettings;
  permissions: { services: ServiceGrants };
}

const key = (k: string) => `askDocs.${k}`;

function invalid(k: string, expected: string, got: unknown): Error {
  return new Error(
    `Invalid config askDocs.${k}: expected ${expected}, got ${JSON.stringify(
      got,
    )}`,
  );
}

/** Reads an optional number and checks it; `what` names the expectation in the error. */
function number(
  config: Config,
  k: string,
  what: 'positive' | 'positive integer' | 'non-negative integer',
): number | undefined {
  const value = config.getOptionalNumber(key(k));
  if (value === undefined) return undefined;
  const ok =
    what === 'positive'
      ? value > 0
      : Number.isInteger(value) &&
        (what === 'positive integer' ? value > 0 : value >= 0);
  if (!ok) throw invalid(k, `a ${what} number`, value);
  return value;
}

function inRange(
  config: Config,
  k: string,
  min: number,
  max: number,
): number | undefined {
  const value = config.getOptionalNumber(key(k));
  if (value !== undefined && !(value >= min && value <= max)) {
    throw invalid(k, `a number from ${min} to ${max}`, value);
  }
  return value;
}

/** Drops undefined values, so that `{ ...defaults, ...options }` keeps the defaults. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined),
  ) as T;
}

function readLanguages(config: Config): string[] {
  const languages = config.getOptionalStringArray(key('languages')) ?? [
    'en',
    'cs',
  ];
  if (languages.length === 0 || languages.some(l => !l.trim())) {
    throw invalid(
      'languages',
      'a non-empty list of language codes such as [en, cs]',
      languages,
    );
  }
  // Reported here, before the database is touched, not when the analysers are built.
  const builtIn = BUILT_IN_PROFILES.map(p => normalizeLanguage(p.lang));
  const unknown = languages.filter(
    l => !builtIn.includes(normalizeLanguage(l)),
  );
  if (unknown.length) {
    throw invalid(
      'languages',
      `codes of the built-in analysers: ${builtIn.join(', ')}`,
      languages,
    );
  }
  return languages;
}

function readHunspell(config: Config): AskDocsConfig['hunspell'] {
  const hunspell: AskDocsConfig['hunspell'] = {};
  const raw = config.getOptional(key('hunspell'));
  if (raw === undefined) return hunspell;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(
      'hunspell',
      'an object such as { cs: { affPath, dicPath } }',
      raw,
    );
  }
  for (const lang of Object.keys(raw)) {
    hunspell[lang] = {
      affPath: config.getString(key(`hunspell.${lang}.affPath`)),
      dicPath: config.getString(key(`hunspell.${lang}.dicPath`)),
    };
  }
  return hunspell;
}

function readBilingualDictionary(
  config: Config,
  languages: string[],
): BilingualDictionaryFiles | undefined {
  if (!config.has(key('bilingualDictionary'))) return undefined;
  const files = {
    path: config.getString(key('bilingualDictionary.path')),
    from: config.getString(key('bilingualDictionary.from')),
    to: config.getString(key('bilingualDictionary.to')),
  };
  const configured = new Set(languages.map(normalizeLanguage));
  const [from, to] = [files.from, files.to].map(normalizeLanguage);
  if (from === to || !configured.has(from) || !configured.has(to))
    throw invalid(
      'bilingualDictionary',
      `from and to: two different languages among ${languages.join(', ')}`,
      files,
    );
  return files;
}

/** getOptionalString rejects "", but an empty prefix is how e5's default prefixes are off. */
function readPrefix(config: Config, k: string): string | undefined {
  const value = config.getOptional(key(`embeddings.${k}`));
  if (value === undefined || typeof value === 'string') return value;
  throw new Error(
    `Invalid askDocs.embeddings.${k}: expected a string, got ${typeof value}`,
  );
}

function readEmbeddings(config: Config): EmbeddingSettings {
  // transformers.js is an optional peer dependency: only a configured model directory loads it.
  const configuredPath = config.getOptionalString(
    key('embeddings.localModelPath'),
  );
  const configuredProvider = config.getOptionalString(
    key('embeddings.provider'),
  );
  const provider =
    configuredProvider ?? (configuredPath ? 'transformers' : 'hashing');
  if (provider !== 'transformers' && provider !== 'hashing') {
    throw new Error(
      `Invalid askDocs.embeddings.provider "${provider}"; expected "transformers" or "hashing"`,
    );
  }
  return {
    provider,
    model:
      config.getOptionalString(key('embeddings.model')) ??
      DEFAULT_EMBEDDING_MODEL,
    // Relative paths resolve against the backend's working directory.
    localModelPath: path.resolve(configuredPath ?? 'models'),
    configured: Boolean(configuredPath || configuredProvider),
    queryPrefix: readPrefix(config, 'queryPrefix'),
    passagePrefix: readPrefix(config, 'passagePrefix'),
    dimension:
      number(config, 'embeddings.dimension', 'positive integer') ??
      DEFAULT_HASHING_DIMENSION,
    batchSize: number(config, 'embeddings.batchSize', 'positive integer'),
    // Checked here as the reranker's are: a bad value must not end in the fallback unnoticed.
    maxTokens: atLeast(config, 'embeddings.maxTokens', 2),
    dtype: readDtype(config, 'embeddings.dtype'),
    allowFallback:
      config.getOptionalBoolean(key('embeddings.allowFallback')) ?? true,
  };
}

function readIngestion(config: Config): IngestionSettings {
  const configured = config.has(key('ingestion.schedule'));
  const schedule: SchedulerServiceTaskScheduleDefinition = configured
    ? readSchedulerServiceTaskScheduleDefinitionFromConfig(
        config.getConfig(key('ingestion.schedule')),
      )
    : {
        frequency: { minutes: 30 },
        // A run past its timeout stops (the scheduler aborts it): room for a first run of a
        // large corpus. The next run goes on from there, unchanged pages skipped.
        timeout: { hours: 3 },
        initialDelay: { seconds: 10 },
      };
  const runOnStart =
    config.getOptionalBoolean(key('ingestion.runOnStart')) ?? false;
  if (runOnStart) {
    if (configured && schedule.initialDelay) {
      throw invalid(
        'ingestion.runOnStart',
        'no schedule.initialDelay alongside it',
        true,
      );
    }
    // "Right after start": the first scheduled run without the initial delay.
    schedule.initialDelay = { seconds: 0 };
  }
  return {
    schedule,
    runOnStart,
    maxPageChars: number(config, 'ingestion.maxPageChars', 'positive integer'),
    maxChunkChars: number(
      config,
      'ingestion.maxChunkChars',
      'positive integer',
    ),
    concurrency: number(config, 'ingestion.concurrency', 'positive integer'),
  };
}

const thresholdsEntry = z
  .object({
    minSimilarity: z.number().min(-1).max(1).optional(),
    minCoverage: z.number().min(0).max(1).optional(),
  })
  .strict();
const weightsEntry = z
  .object({
    vector: z.number().min(0).max(10).optional(),
    keyword: z.number().min(0).max(10).optional(),
  })
  .strict();

/** Model ids may contain dots, so per-model maps are read whole and checked here. */
function readPerModel<T extends z.ZodTypeAny>(
  config: Config,
  k: string,
  entry: T,
) {
  const parsed = z.record(entry).safeParse(config.getOptional(key(k)) ?? {});
  if (!parsed.success)
    throw new Error(`Invalid askDocs.${k}: ${parsed.error.message}`);
  return parsed.data as Record<string, z.infer<T>>;
}

/** `askDocs.retrieval.reranker`, when present; its model directory defaults to the embedder's. */
function readReranker(
  config: Config,
  embeddings: EmbeddingSettings,
): RerankerSettings | undefined {
  const k = 'retrieval.reranker';
  const raw = config.getOptional(key(k));
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(k, 'an object such as { model: <model id> }', raw);
  }
  const model = config.getOptionalString(key(`${k}.model`))?.trim();
  if (!model) {
    throw invalid(
      `${k}.model`,
      'the reranker model id (its directory under localModelPath)',
      model ?? null,
    );
  }
  const configuredPath = config.getOptionalString(key(`${k}.localModelPath`));
  return {
    model,
    localModelPath: configuredPath
      ? path.resolve(configuredPath)
      : embeddings.localModelPath,
    candidates:
      number(config, `${k}.candidates`, 'positive integer') ??
      DEFAULT_RERANK_CANDIDATES,
    maxTokens: atLeast(config, `${k}.maxTokens`, 2),
    batchSize: number(config, `${k}.batchSize`, 'positive integer'),
    dtype: readDtype(config, `${k}.dtype`),
    allowFallback:
      config.getOptionalBoolean(key(`${k}.allowFallback`)) ?? false,
  };
}

/** An optional integer of at least `min`. */
function atLeast(config: Config, k: string, min: number): number | undefined {
  const value = config.getOptionalNumber(key(k));
  if (value !== undefined && !(Number.isInteger(value) && value >= min))
    throw invalid(k, `an integer of at least ${min}`, value);
  return value;
}

function readDtype(config: Config, k: string): string | undefined {
  const value = config.getOptionalString(key(k));
  if (value !== undefined && DTYPE_SUFFIX[value] === undefined)
    throw invalid(k, `one of ${Object.keys(DTYPE_SUFFIX).join(', ')}`, value);
  return value;
}

function readRetrieval(
  config: Config,
  embeddings: EmbeddingSettings,
): RetrievalConfig {
  const hnswBuildMemory = config.getOptionalString(
    key('retrieval.hnswBuildMemory'),
  );
  if (
    hnswBuildMemory !== undefined &&
    !HNSW_BUILD_MEMORY_PATTERN.test(hnswBuildMemory)
  ) {
    throw invalid(
      'retrieval.hnswBuildMemory',
      'a size such as 512MB (kB, MB or GB)',
      hnswBuildMemory,
    );
  }
  return {
    topK: number(config, 'retrieval.topK', 'positive integer') ?? DEFAULT_TOP_K,
    candidates: number(config, 'retrieval.candidates', 'positive integer'),
    rrfK: number(config, 'retrieval.rrfK', 'non-negative integer'),
    thresholds: readPerModel(config, 'retrieval.thresholds', thresholdsEntry),
    fusionWeights: readPerModel(
      config,
      'retrieval.fusionWeights',
      weightsEntry,
    ),
    hnswBuildMemory,
    evidenceDecision: readEvidenceDecision(config),
    fusion: readFusionMethod(config),
    titleWeight: inRange(config, 'retrieval.titleWeight', 0, 1),
    phraseWeight: inRange(config, 'retrieval.phraseWeight', 0, 1),
    releaseNotesPenalty: inRange(config, 'retrieval.releaseNotesPenalty', 0, 1),
    reranker: readReranker(config, embeddings),
  };
}

function readEvidenceDecision(
  config: Config,
): RetrievalConfig['evidenceDecision'] {
  const value = config.getOptionalString(key('retrieval.evidenceDecision'));
  if (value !== undefined && value !== 'thresholds' && value !== 'fitted') {
    throw invalid(
      'retrieval.evidenceDecision',
      '"thresholds" or "fitted"',
      value,
    );
  }
  return value;
}

function readFusionMethod(config: Config): FusionMethod | undefined {
  const value = config.getOptionalString(key('retrieval.fusion'));
  if (value !== undefined && !FUSION_METHODS.includes(value as FusionMethod))
    throw invalid('retrieval.fusion', '"rrf" or "scores"', value);
  return value as FusionMethod | undefined;
}

function readVisibilitySync(config: Config): VisibilitySyncSettings {
  const duration = (k: string, fallback: HumanDuration) =>
    config.has(key(k))
      ? readDurationFromConfig(config, { key: key(k) })
      : fallback;
  const frequency = duration('visibilitySync.frequency', { seconds: 30 });
  const maxStaleness = duration('visibilitySync.maxStaleness', { seconds: 90 });
  const maxStalenessSeconds = durationToMilliseconds(maxStaleness) / 1000;
  const frequencySeconds = durationToMilliseconds(frequency) / 1000;
  if (!(frequencySeconds > 0) || !(maxStalenessSeconds > frequencySeconds)) {
    // A bound below one sync interval would hide everything between two successful syncs.
    throw new Error(
      `askDocs.visibilitySync: maxStaleness (${maxStalenessSeconds} s) must be longer than ` +
        `frequency (${frequencySeconds} s)`,
    );
  }
  const enabled =
    config.getOptionalBoolean(key('visibilitySync.enabled')) ?? true;
  return { enabled, frequency, maxStalenessSeconds };
}

/**
 * `askDocs.llm`: undefined when model or apiKey is missing (e.g. `${OPENAI_API_KEY}` unset);
 * callers then treat the model as down. Local servers that need no key still need some apiKey
 * value, e.g. `none`.
 */
function readLlm(config: Config): ChatModelOptions | undefined {
  const model = config.getOptionalString(key('llm.model'))?.trim();
  const apiKey = config.getOptionalString(key('llm.apiKey'))?.trim();
  // Read even when unused, so a bad value is reported whether or not a model is configured.
  const timeoutMs =
    number(config, 'llm.timeoutMs', 'positive integer') ??
    DEFAULT_LLM_TIMEOUT_MS;
  // A timer longer than this fires at once in Node: every call would time out.
  if (timeoutMs > MAX_TIMER_MS)
    throw invalid('llm.timeoutMs', `at most ${MAX_TIMER_MS} ms`, timeoutMs);
  const maxRetries =
    number(config, 'llm.maxRetries', 'non-negative integer') ??
    DEFAULT_LLM_MAX_RETRIES;
  const baseUrl =
    config.getOptionalString(key('llm.baseUrl'))?.trim() || undefined;
  // Without a scheme the SDK fails every call as a network error, which looks like an outage.
  if (baseUrl !== undefined && !isHttpUrl(baseUrl))
    throw invalid(
      'llm.baseUrl',
      'an http or https URL such as http://localhost:8000/v1',
      baseUrl,
    );
  const temperature = inRange(config, 'llm.temperature', 0, 2) ?? 0;
  const maxTokens = number(config, 'llm.maxTokens', 'positive integer');
  if (!model || !apiKey) return undefined;
  // Without one the OpenAI SDK picks OPENAI_BASE_URL or api.openai.com: a variable left unset
  // would send the passages to a third party. The endpoint is always named.
  if (baseUrl === undefined)
    throw new Error(
      'Invalid config askDocs.llm.baseUrl: required with a model; name the ' +
        'OpenAI-compatible endpoint the passages go to, e.g. http://localhost:8000/v1 ' +
        '(https://api.openai.com/v1 for OpenAI itself)',
    );
  return {
    baseUrl,
    apiKey,
    model,
    timeoutMs,
    maxRetries,
    temperature,
    maxTokens,
  };
}

const MAX_TIMER_MS = 2 ** 31 - 1;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && !!url.host
    );
  } catch {
    return false;
  }
}

/** Room a passage's block takes in the prompt beside its text: title, section, cite-as lines. */
const BLOCK_LABEL_ROOM = 500;

/**
 * A passage is sent to the model whole or not at all, so the context budget must hold the
 * longest passage ingestion writes with its labels; otherwise every answer is evidence only.
 */
function checkPassageFits(
  ingestion: IngestionSettings,
  answer: AnswerSettings,
): void {
  const chunk = ingestion.maxChunkChars ?? DEFAULT_MAX_CHUNK_CHARS;
  const context = answer.options.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS;
  if (context < chunk + BLOCK_LABEL_ROOM)
    throw new Error(
      `askDocs.answer.maxContextChars (${context}) must be at least askDocs.ingestion.` +
        `maxChunkChars (${chunk}) + ${BLOCK_LABEL_ROOM}: a passage is sent to the model ` +
        'whole with its title and section, and one that does not fit is never sent',
    );
}

function readModelQuota(
  config: Config,
  answer: AnswerSettings,
): ModelQuota | undefined {
  if (!config.has(key('llm.quotaPerUser'))) return undefined;
  const calls = number(config, 'llm.quotaPerUser.calls', 'positive integer');
  if (calls === undefined)
    throw invalid('llm.quotaPerUser.calls', 'a positive integer', undefined);
  const per = readDurationFromConfig(config, {
    key: key('llm.quotaPerUser.per'),
  });
  const windowSeconds = durationToMilliseconds(per) / 1000;
  if (!(windowSeconds >= 1))
    throw invalid('llm.quotaPerUser.per', 'at least one second', per);
  // The calls are counted from the answer records: a longer window would count deleted ones.
  if (windowSeconds > answer.retentionDays * 86_400)
    throw invalid(
      'llm.quotaPerUser.per',
      `at most askDocs.answer.retention.days (${answer.retentionDays} days)`,
      per,
    );
  return { calls, windowSeconds };
}

function readAnswer(config: Config): AnswerSettings {
  const options = defined({
    maxContextChars: number(
      config,
      'answer.maxContextChars',
      'positive integer',
    ),
    maxBlocks: number(config, 'answer.maxBlocks', 'positive integer'),
    maxEvidence: number(config, 'answer.maxEvidence', 'positive integer'),
    verifyClaims: config.getOptionalBoolean(key('answer.verifyClaims')),
    minClaimOverlap: inRange(config, 'answer.minClaimOverlap', 0, 1),
  });
  return {
    options,
    retentionDays: number(config, 'answer.retention.days', 'positive') ?? 365,
    maxQuestionChars:
      number(config, 'answer.maxQuestionChars', 'positive integer') ?? 2000,
    maxQueryTerms: number(config, 'answer.maxQueryTerms', 'positive integer'),
  };
}

/**
 * `askDocs.permissions.services`: a list of `{ subject, permissions }`. A list rather than a
 * map keyed by subject because subjects (`external:ci-bot`, JWKS subjects) may contain dots.
 * Unknown permission names are a startup error, not a silent no-op.
 */
function readServiceGrants(config: Config): ServiceGrants {
  const grants = new Map<string, Set<string>>();
  const entries =
    config.getOptionalConfigArray(key('permissions.services')) ?? [];
  for (const entry of entries) {
    const subject = entry.getString('subject').trim();
    if (!subject)
      throw new Error(
        'askDocs.permissions.services: subject must not be empty',
      );
    const names = entry.getStringArray('permissions');
    for (const name of names) {
      if (!ADMINISTRATIVE_PERMISSION_NAMES.has(name)) {
        throw new Error(
          `askDocs.permissions.services: ${JSON.stringify(
            name,
          )} for ${subject} is not one of ` +
            `${[...ADMINISTRATIVE_PERMISSION_NAMES].join(', ')}`,
        );
      }
    }
    grants.set(subject, new Set([...(grants.get(subject) ?? []), ...names]));
  }
  return grants;
}

/** Reads, defaults and validates all of `askDocs`; throws on the first bad key. */
export function readAskDocsConfig(config: Config): AskDocsConfig {
  const embeddings = readEmbeddings(config);
  const languages = readLanguages(config);
  const answer = readAnswer(config);
  const ingestion = readIngestion(config);
  const llm = readLlm(config);
  // Without a model nothing is sent, and the budget is never used.
  if (llm) checkPassageFits(ingestion, answer);
  return {
    languages,
    hunspell: readHunspell(config),
    ...defined({
      bilingualDictionary: readBilingualDictionary(config, languages),
    }),
    embeddings,
    ingestion,
    retrieval: readRetrieval(config, embeddings),
    visibilitySync: readVisibilitySync(config),
    retention: {
      chunkVersionsDays:
        number(config, 'retention.chunkVersionsDays', 'positive') ?? 90,
      // At least a day: instances confirm their model hourly, and a shorter window would
      // delete the vectors a slow or briefly stopped instance still serves.
      unusedModelDays:
        inRange(config, 'retention.unusedModelDays', 1, 3650) ?? 7,
      removedEntityDays:
        inRange(config, 'retention.removedEntityDays', 0, 3650) ?? 1,
    },
    llm,
    modelQuota: readModelQuota(config, answer),
    answer,
    permissions: { services: readServiceGrants(config) },
  };
}

/** Retrieval settings for the embedder the plugin actually runs (known only after start-up). */
export function resolveRetrievalSettings(
  retrieval: RetrievalConfig,
  embedder: { modelId: string; kind: EmbedderKind },
): RetrievalSettings {
  return {
    k: retrieval.topK,
    candidates: retrieval.candidates,
    rrfK: retrieval.rrfK,
    thresholds: readRelevanceThresholds(retrieval.thresholds, embedder.modelId),
    weights: readFusionWeights(retrieval.fusionWeights, embedder),
    fusion: retrieval.fusion ?? DEFAULT_FUSION_METHOD[embedder.kind],
    // Unset keeps the retriever's defaults (each answer records them: rankingSettings).
    ...defined({
      titleWeight: retrieval.titleWeight,
      phraseWeight: retrieval.phraseWeight,
      releaseNotesPenalty: retrieval.releaseNotesPenalty,
    }),
    evidenceModel: evidenceModelFor(retrieval, embedder),
  };
}

/**
 * The evidence decision (decision record 0009): the fitted model by default for the embedding
 * model it was fitted on (its features mean nothing for another model's scores), for any model
 * of its kind when chosen; the thresholds when chosen, when the operator configured thresholds
 * for this model or as default (an explicit bar wins), and for models without fitted numbers.
 */
function evidenceModelFor(
  retrieval: RetrievalConfig,
  embedder: { modelId: string; kind: EmbedderKind },
): EvidenceModel | undefined {
  const { evidenceDecision: decision, thresholds } = retrieval;
  if (decision === 'thresholds') return undefined;
  if (thresholds[embedder.modelId] || thresholds.default) return undefined;
  const fitted = FITTED_EVIDENCE_MODELS[embedder.kind];
  if (decision === 'fitted') return fitted;
  return fitted?.modelId === embedder.modelId ? fitted : undefined;
}

/** For scripts and tests that start from a Config (test/eval): read, then resolve. */
export function readRetrievalSettings(
  config: Config,
  embedder: { modelId: string; kind: EmbedderKind },
): RetrievalSettings {
  return resolveRetrievalSettings(
    readAskDocsConfig(config).retrieval,
    embedder,
  );
}
