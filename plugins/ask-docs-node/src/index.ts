/**
 * Node library for backend plugins that ask the docs on behalf of a user.
 *
 * @packageDocumentation
 */
export type { AskDocsService } from './AskDocsService';
export { DefaultAskDocsService } from './DefaultAskDocsService';
export { askDocsServiceRef } from './askDocsServiceRef';
