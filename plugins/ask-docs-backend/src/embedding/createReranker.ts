import { LoggerService } from '@backstage/backend-plugin-api';
import type { RerankerSettings } from '../settings';
import { CrossEncoderReranker } from './CrossEncoderReranker';
import { Reranker, RerankerInfo } from './reranker';

export interface CreatedReranker {
  /** Undefined when none is configured or it could not be loaded (allowFallback). */
  reranker?: Reranker;
  /** Undefined when none is configured. */
  info?: RerankerInfo;
}

/**
 * Builds the configured reranker; without configuration nothing is loaded. A reranker that
 * cannot be loaded fails start-up, as the embedder does with allowFallback false; with
 * allowFallback the plugin starts without it, loudly, and /health keeps the reason.
 */
export async function createReranker(
  s: RerankerSettings | undefined,
  logger: LoggerService,
  load: typeof CrossEncoderReranker.load = o => CrossEncoderReranker.load(o),
): Promise<CreatedReranker> {
  if (!s) return {};
  try {
    const reranker = await load({
      modelId: s.model,
      localModelPath: s.localModelPath,
      candidates: s.candidates,
      maxTokens: s.maxTokens,
      batchSize: s.batchSize,
      dtype: s.dtype,
    });
    logger.info(
      `Ask docs reranker: ${reranker.modelId} from ${reranker.localModelPath} rescores the ` +
        `top ${reranker.candidates} retrieved chunks`,
    );
    return {
      reranker,
      info: {
        modelId: reranker.modelId,
        loaded: true,
        candidates: reranker.candidates,
      },
    };
  } catch (e) {
    const reason = `could not load reranker model "${s.model}" from "${
      s.localModelPath
    }": ${e instanceof Error ? e.message : String(e)}`;
    if (!s.allowFallback) {
      throw new Error(
        `Ask docs reranker: ${reason} (askDocs.retrieval.reranker.allowFallback is false)`,
      );
    }
    logger.warn(
      `!!! Ask docs reranker: RUNNING WITHOUT the configured reranker; chunks keep the fused ` +
        `order. Reason: ${reason}. Unset askDocs.retrieval.reranker.allowFallback to make ` +
        'this a startup error.',
    );
    return {
      info: {
        modelId: s.model,
        loaded: false,
        candidates: s.candidates,
        // /health is public: the path and the load error stay in the log above.
        note: 'Reranker not loaded; chunks keep the fused order (the start-up log says why)',
      },
    };
  }
}
