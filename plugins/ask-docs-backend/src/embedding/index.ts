export {
  embedderInfo,
  type Embedder,
  type EmbedderInfo,
  type EmbedderKind,
} from './types';
export {
  HashingEmbedder,
  DEFAULT_HASHING_DIMENSION,
  type HashingEmbedderOptions,
} from './HashingEmbedder';
export {
  TransformersEmbedder,
  EmbeddingModelNotFoundError,
  DEFAULT_EMBEDDING_MODEL,
  type TransformersEmbedderOptions,
} from './TransformersEmbedder';
export { createEmbedder } from './createEmbedder';
export {
  DEFAULT_RERANK_CANDIDATES,
  type Reranker,
  type RerankerInfo,
} from './reranker';
export {
  CrossEncoderReranker,
  RerankerModelNotFoundError,
  type CrossEncoderRerankerOptions,
} from './CrossEncoderReranker';
export { createReranker, type CreatedReranker } from './createReranker';
export type { EmbeddingSettings } from '../settings';
export { dot, l2NormalizeInPlace } from './vectorMath';
