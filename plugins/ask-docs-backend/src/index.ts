/**
 * Ask the docs backend plugin.
 *
 * @packageDocumentation
 */
export { askDocsPlugin as default } from './plugin';
export {
  askDocsChunkConditions,
  createAskDocsChunkConditionalDecision,
  askDocsChunkPermissionRules,
} from './permissions';
