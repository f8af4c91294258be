export { resolveVisibility, Visibility } from './visibility';
export type { VisibilitySummary } from './visibility';
export {
  askDocsChunkResourceRef,
  askDocsChunkRules,
  askDocsChunkPermissionRules,
  askDocsChunkConditions,
  createAskDocsChunkConditionalDecision,
  createAskDocsChunkResourceLoader,
  isEntityOwner,
  isEntityKind,
  isInNamespace,
  hasTag,
  hasLabel,
  hasAnnotation,
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
