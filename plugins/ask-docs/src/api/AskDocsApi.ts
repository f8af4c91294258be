import { createApiRef } from '@backstage/core-plugin-api';
// The wire types of the REST contract, shared with the backend.
import type * as Wire from '@askdocs/plugin-ask-docs-common';

/** Options shared by the calls that can be cancelled, e.g. when their view unmounts. */
export interface AskDocsRequestOptions {
  signal?: AbortSignal;
}

/** Which page of the caller's history to read. */
export interface ListAnswersOptions extends AskDocsRequestOptions {
  limit?: number;
  /** The id of the oldest answer already listed; the page holds the ones older than it. */
  before?: string;
}

/** Client for the ask-docs backend (the REST contract: the backend's src/schema/openapi.yaml). */
export interface AskDocsApi {
  /** Asks and waits for the complete answer. */
  ask(
    request: Wire.AskRequest,
    options?: AskDocsRequestOptions,
  ): Promise<Wire.AskResponse>;
  /**
   * Asks over the streaming endpoint. Yields status and answer-text deltas as they
   * arrive and ends with exactly one `done` (or `error`) event.
   */
  askStream(
    request: Wire.AskRequest,
    options?: AskDocsRequestOptions,
  ): AsyncIterable<Wire.AskStreamEvent>;
  getAnswer(
    id: string,
    options?: AskDocsRequestOptions,
  ): Promise<Wire.AnswerRecord>;
  /**
   * The caller's own previous answers, newest first. `before` (an answer id) pages back: the
   * answers older than that one. Fewer than `limit` items means there are no more.
   */
  listAnswers(options?: ListAnswersOptions): Promise<Wire.AnswerRecord[]>;
  sendFeedback(
    id: string,
    feedback: Wire.AnswerFeedback,
    options?: AskDocsRequestOptions,
  ): Promise<void>;
  /** Admins only: rejects with a ResponseError whose statusCode is 403 otherwise. */
  getIngestionProgress(): Promise<Wire.IngestionProgress>;
  /** Admins only. Starts a run, or joins the one in progress (`started` false). */
  startIngestion(): Promise<Wire.IngestionRunStarted>;
  health(): Promise<Wire.HealthResponse>;
}

export const askDocsApiRef = createApiRef<AskDocsApi>({
  id: 'plugin.ask-docs.service',
});
