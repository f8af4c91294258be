export { registerAskDocsActions } from './askDocsActions';
export type { AskDocsActionsOptions } from './askDocsActions';
