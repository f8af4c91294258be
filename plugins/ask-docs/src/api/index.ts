export { askDocsApiRef } from './AskDocsApi';
export type {
  AskDocsApi,
  AskDocsRequestOptions,
  ListAnswersOptions,
} from './AskDocsApi';
export { AskDocsClient } from './AskDocsClient';
export { SseParser, readSseData } from './sseParser';
export { describeError, errorRequestId, isForbidden, isAbort } from './errors';
