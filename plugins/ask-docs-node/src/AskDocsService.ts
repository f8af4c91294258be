import { BackstageCredentials } from '@backstage/backend-plugin-api';
import {
  AnswerRecord,
  AskRequest,
  AskResponse,
} from '@askdocs/plugin-ask-docs-common';

/** Per-call options of {@link AskDocsService}. */
export interface AskDocsCallOptions {
  /**
   * The user the call is made on behalf of. `ask` refuses a service's credentials
   * (`NotAllowedError`): documents are visible to users only. `getAnswer` takes a service's
   * too, for audit readers (`ask-docs.audit.read`), which then see answers redacted.
   */
  credentials: BackstageCredentials;
  /**
   * Cancels the call: the request is aborted and the call rejects with the signal's reason (an
   * `AbortError` when none was given). The backend then stops retrieval and the model call.
   */
  signal?: AbortSignal;
}

/**
 * Ask the docs for other backend plugins. Every call is made on behalf of the given credentials:
 * an answer only ever uses documents that user may read.
 */
export interface AskDocsService {
  ask(request: AskRequest, options: AskDocsCallOptions): Promise<AskResponse>;
  /**
   * The stored answer, or undefined when the backend has no such answer for this principal.
   * Any other failure throws, including a 404 that is not the plugin's own (e.g. the ask-docs
   * backend is not installed where discovery points).
   */
  getAnswer(
    id: string,
    options: AskDocsCallOptions,
  ): Promise<AnswerRecord | undefined>;
}
