import { createApiRef } from '@backstage/core-plugin-api';
import type {
  AnswerFeedback,
  AnswerRecord,
  AskRequest,
  AskResponse,
  AskStreamEvent,
  HealthResponse,
  IngestionProgress,
  IngestionRunStarted,
} from '@askdocs/plugin-ask-docs-common';

/** Options shared by the calls that may take long enough to be cancelled. */
export interface AskDocsRequestOptions {
  signal?: AbortSignal;
}

/** Client for the ask-docs backend (the REST contract: the backend's src/schema/openapi.yaml). */
export interface AskDocsApi {
  /** Asks and waits for the complete answer. */
  ask(
    request: AskRequest,
    options?: AskDocsRequestOptions,
  ): Promise<AskResponse>;
  /**
   * Asks over the streaming endpoint. Yields status and answer-text deltas as they
   * arrive and ends with exactly one `done` (or `error`) event.
   */
  askStream(
    request: AskRequest,
    options?: AskDocsRequestOptions,
  ): AsyncIterable<AskStreamEvent>;
  getAnswer(id: string): Promise<AnswerRecord>;
  /** The caller's own previous answers, newest first. */
  listAnswers(options?: { limit?: number }): Promise<AnswerRecord[]>;
  sendFeedback(id: string, feedback: AnswerFeedback): Promise<void>;
  /** Admins only: rejects with a ResponseError whose statusCode is 403 otherwise. */
  getIngestionProgress(): Promise<IngestionProgress>;
  /** Admins only. Starts a run, or joins the one in progress (`started` false). */
  startIngestion(): Promise<IngestionRunStarted>;
  health(): Promise<HealthResponse>;
}

export const askDocsApiRef = createApiRef<AskDocsApi>({
  id: 'plugin.ask-docs.service',
});
