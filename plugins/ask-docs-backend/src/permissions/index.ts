export { resolveVisibility, Visibility } from './visibility';
export type { VisibilitySummary } from './visibility';
export {
  askDocsChunkResourceRef,
  askDocsChunkRules,
  askDocsChunkPermissionRules,
  askDocsChunkConditions,
  createAskDocsChunkConditionalDecision,
  createAskDocsChunkResourceLoader,
} from './rules';
export {
  translateCatalogConditions,
  catalogRuleTranslations,
} from './catalogConditions';
export type {
  AskDocsEntityAttributes,
  EntityFilter,
  EntityCriteria,
} from './entityFilter';
