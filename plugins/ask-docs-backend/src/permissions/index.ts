export { resolveVisibility, Visibility } from './visibility';
export type { VisibilitySummary } from './visibility';
export {
  askDocsChunkResourceRef,
  askDocsChunkRules,
  askDocsChunkPermissionRules,
  askDocsChunkConditions,
  createAskDocsChunkConditionalDecision,
} from './rules';
// Reads the index, so it lives in the database layer (why: database/chunkResourceLoader.ts).
export { createAskDocsChunkResourceLoader } from '../database/chunkResourceLoader';
export {
  translateCatalogConditions,
  catalogRuleTranslations,
} from './catalogConditions';
export type {
  AskDocsEntityAttributes,
  EntityFilter,
  EntityCriteria,
} from './entityFilter';
