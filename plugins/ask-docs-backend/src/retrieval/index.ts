export { retrieve } from './retriever';
export { fetchVisibleChunks } from './fetchChunks';
export type {
  RankedChunk,
  RetrieveOptions,
  RetrievalResult,
  RetrievalMode,
} from './retriever';
export { vectorSearch, EXACT_SEARCH_UP_TO } from './vectorSearch';
export type { VectorHit, VectorSearchOptions } from './vectorSearch';
export { keywordSearch, keywordStatistics, idf } from './keywordSearch';
export type {
  QueryToken,
  KeywordHit,
  KeywordStatistics,
  TokenStatistics,
} from './keywordSearch';
export { suggestCorrections, boundedDamerauLevenshtein } from './typo';
export type { Correction, TypoOptions } from './typo';
export {
  reciprocalRankFusion,
  DEFAULT_RRF_K,
  DEFAULT_FUSION_WEIGHTS,
  readFusionWeights,
} from './fusion';
export type { FusedItem, FusionMethod, FusionWeights } from './fusion';
export {
  readRelevanceThresholds,
  filterRelevant,
  isRelevant,
  DEFAULT_RELEVANCE_THRESHOLDS,
} from './relevance';
export type { RelevanceThresholds, Evidence } from './relevance';
export {
  evidenceFeatures,
  evidenceProbability,
  EVIDENCE_FEATURES,
  CHUNK_COVERAGE_SHARE,
} from './evidence';
export type {
  EvidenceFeatures,
  EvidenceModel,
  EvidenceInput,
} from './evidence';
export { FITTED_EVIDENCE_MODELS } from './evidenceModel.fitted';
export type { RetrievalScope } from '../database/visibilityPredicate';
