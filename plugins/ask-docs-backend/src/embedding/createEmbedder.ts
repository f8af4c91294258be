import path from 'node:path';
import { Config } from '@backstage/config';
import { LoggerService } from '@backstage/backend-plugin-api';
import type { Analyzers } from '../language';
import { Embedder } from './types';
import { DEFAULT_HASHING_DIMENSION, HashingEmbedder } from './HashingEmbedder';
import { DEFAULT_EMBEDDING_MODEL, TransformersEmbedder } from './TransformersEmbedder';

/** Resolved `askDocs.embeddings` settings. */
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

/** getOptionalString rejects "", but an empty prefix is how e5's default prefixes are turned off. */
function readPrefix(c: Config | undefined, key: string): string | undefined {
  const value = c?.getOptional(key);
  if (value === undefined || typeof value === 'string') return value;
  throw new Error(`Invalid askDocs.embeddings.${key}: expected a string, got ${typeof value}`);
}

/** Reads `askDocs.embeddings` from the root config, applying defaults. */
export function readEmbeddingSettings(config: Config): EmbeddingSettings {
  const c = config.getOptionalConfig('askDocs.embeddings');
  // transformers.js is an optional peer dependency: only a configured model directory loads it.
  const configuredPath = c?.getOptionalString('localModelPath');
  const configuredProvider = c?.getOptionalString('provider');
  const provider = configuredProvider ?? (configuredPath ? 'transformers' : 'hashing');
  if (provider !== 'transformers' && provider !== 'hashing') {
    throw new Error(
      `Invalid askDocs.embeddings.provider "${provider}"; expected "transformers" or "hashing"`,
    );
  }
  return {
    provider,
    model: c?.getOptionalString('model') ?? DEFAULT_EMBEDDING_MODEL,
    // Relative paths resolve against the backend's working directory.
    localModelPath: path.resolve(configuredPath ?? 'models'),
    configured: Boolean(configuredPath || configuredProvider),
    queryPrefix: readPrefix(c, 'queryPrefix'),
    passagePrefix: readPrefix(c, 'passagePrefix'),
    dimension: c?.getOptionalNumber('dimension') ?? DEFAULT_HASHING_DIMENSION,
    batchSize: c?.getOptionalNumber('batchSize'),
    maxTokens: c?.getOptionalNumber('maxTokens'),
    dtype: c?.getOptionalString('dtype'),
    allowFallback: c?.getOptionalBoolean('allowFallback') ?? true,
  };
}

/**
 * Builds the configured embedder. A transformers model that cannot be loaded degrades to the
 * lexical hashing embedder only when allowed, loudly, and with the reason kept for /health.
 */
export async function createEmbedder(
  config: Config,
  logger: LoggerService,
  deps: { analyzers?: Analyzers } = {},
): Promise<Embedder> {
  const s = readEmbeddingSettings(config);

  if (s.provider === 'hashing') {
    const fallbackReason = s.configured
      ? undefined
      : 'no embedding model configured (askDocs.embeddings.localModelPath)';
    const embedder = new HashingEmbedder({
      dimension: s.dimension,
      analyzers: deps.analyzers,
      fallbackReason,
    });
    logger.info(
      `Ask docs embeddings: lexical hashing embedder ${embedder.modelId} ` +
        `(${fallbackReason ?? 'configured'}; not a semantic model)`,
    );
    return embedder;
  }

  try {
    const embedder = await TransformersEmbedder.load({
      modelId: s.model,
      localModelPath: s.localModelPath,
      queryPrefix: s.queryPrefix,
      passagePrefix: s.passagePrefix,
      batchSize: s.batchSize,
      maxTokens: s.maxTokens,
      dtype: s.dtype,
    });
    logger.info(
      `Ask docs embeddings: ${embedder.modelId} (dimension ${embedder.dimension}) from ${embedder.localModelPath}`,
    );
    return embedder;
  } catch (e) {
    const reason = `could not load embedding model "${s.model}" from "${s.localModelPath}": ${
      e instanceof Error ? e.message : String(e)
    }`;
    if (!s.allowFallback) {
      throw new Error(`Ask docs embeddings: ${reason} (askDocs.embeddings.allowFallback is false)`);
    }
    const fallback = new HashingEmbedder({ dimension: s.dimension, fallbackReason: reason, analyzers: deps.analyzers });
    logger.warn(
      `!!! Ask docs embeddings: FALLING BACK to the lexical hashing embedder ${fallback.modelId}; ` +
        `retrieval quality will be much lower. Reason: ${reason}. ` +
        'Set askDocs.embeddings.allowFallback: false to make this a startup error.',
    );
    return fallback;
  }
}
