/**
 * Node library for backend plugins that ask the docs on behalf of a user.
 *
 * @packageDocumentation
 */
export type { AskDocsCallOptions, AskDocsService } from './AskDocsService';
export { DefaultAskDocsService } from './DefaultAskDocsService';
export { askDocsServiceRef } from './askDocsServiceRef';
// The wire types of the service's signatures, so callers need no direct dependency on common.
export type {
  AnswerFeedback,
  AnswerRecord,
  AnswerRedaction,
  AnswerSource,
  AnswerStatus,
  AskRequest,
  AskResponse,
  AskScope,
  EvidenceChunk,
  SourceCitation,
} from '@askdocs/plugin-ask-docs-common';
