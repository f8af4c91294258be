import { LoggerService } from '@backstage/backend-plugin-api';
import type { Analyzers } from '../language';
import type { EmbeddingSettings } from '../settings';
import { Embedder } from './types';
import { HashingEmbedder } from './HashingEmbedder';
import { TransformersEmbedder } from './TransformersEmbedder';

/**
 * Builds the configured embedder. A transformers model that cannot be loaded degrades to the
 * lexical hashing embedder only when allowed, loudly, and with the reason kept for /health.
 */
export async function createEmbedder(
  s: EmbeddingSettings,
  logger: LoggerService,
  deps: { analyzers?: Analyzers } = {},
): Promise<Embedder> {
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
      `Ask docs embeddings: ${embedder.modelId} (dimension ${embedder.dimension}) from ` +
        `${embedder.localModelPath}`,
    );
    return embedder;
  } catch (e) {
    const reason = `could not load embedding model "${s.model}" from "${
      s.localModelPath
    }": ${e instanceof Error ? e.message : String(e)}`;
    if (!s.allowFallback) {
      throw new Error(
        `Ask docs embeddings: ${reason} (askDocs.embeddings.allowFallback is false)`,
      );
    }
    const fallback = new HashingEmbedder({
      dimension: s.dimension,
      // Shown on the public /health: the path and the load error stay in the log below.
      fallbackReason: `could not load embedding model "${s.model}" (the start-up log says why)`,
      analyzers: deps.analyzers,
    });
    logger.warn(
      `!!! Ask docs embeddings: FALLING BACK to the lexical hashing embedder ` +
        `${fallback.modelId}; retrieval quality will be much lower. Reason: ${reason}. ` +
        'Set askDocs.embeddings.allowFallback: false to make this a startup error.',
    );
    return fallback;
  }
}
