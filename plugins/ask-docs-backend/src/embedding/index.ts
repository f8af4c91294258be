export type { Embedder, EmbedderInfo, EmbedderKind } from './types';
export { embedderInfo } from './types';
export { HashingEmbedder, DEFAULT_HASHING_DIMENSION } from './HashingEmbedder';
export type { HashingEmbedderOptions } from './HashingEmbedder';
export {
  TransformersEmbedder,
  EmbeddingModelNotFoundError,
  DEFAULT_EMBEDDING_MODEL,
} from './TransformersEmbedder';
export type { TransformersEmbedderOptions } from './TransformersEmbedder';
export { createEmbedder } from './createEmbedder';
export type { EmbeddingSettings } from '../settings';
export { dot, l2NormalizeInPlace } from './vectorMath';
