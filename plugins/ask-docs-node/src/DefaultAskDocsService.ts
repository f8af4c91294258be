import { AuthService, DiscoveryService } from '@backstage/backend-plugin-api';
import { NotAllowedError, ResponseError } from '@backstage/errors';
import {
  AnswerRecord,
  AskRequest,
  AskResponse,
  isAnswerId,
  noAnswerMessage,
} from '@askdocs/plugin-ask-docs-common';
import { AskDocsCallOptions, AskDocsService } from './AskDocsService';

/** Why `ask` refuses a service's credentials (the test fake says the same). */
export const USER_CREDENTIALS_REQUIRED =
  'ask-docs answers only on behalf of a user: pass the credentials of the user who ' +
  "asked (httpAuth.credentials(req, { allow: ['user'] })), not a service's";

/**
 * Calls the ask-docs backend over HTTP with an on-behalf-of token, so the permission decision is
 * made for the original user, never for the calling plugin's service principal.
 */
export class DefaultAskDocsService implements AskDocsService {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly auth: AuthService,
  ) {}

  async ask(
    request: AskRequest,
    options: AskDocsCallOptions,
  ): Promise<AskResponse> {
    // Documents are visible to users only: asked as a service (the calling plugin's own
    // credentials, a forwarded external token), every answer would be "not in the knowledge
    // base", indistinguishable from a real miss. Say so instead, before any request.
    const principal = options.credentials.principal as { type?: string };
    if (principal?.type !== 'user') {
      throw new NotAllowedError(USER_CREDENTIALS_REQUIRED);
    }
    const res = await this.request('/v1/ask', options, {
      method: 'POST',
      body: JSON.stringify(request),
      headers: { 'Content-Type': 'application/json' },
    });
    if (!res.ok) throw await ResponseError.fromResponse(res as any);
    return res.json();
  }

  async getAnswer(
    id: string,
    options: AskDocsCallOptions,
  ): Promise<AnswerRecord | undefined> {
    // Anything else ('', '.', '..') could name another endpoint once the URL is normalised.
    if (!isAnswerId(id)) return undefined;
    const res = await this.request(
      `/v1/answers/${encodeURIComponent(id)}`,
      options,
      {},
    );
    if (res.ok) return res.json();
    const error = await ResponseError.fromResponse(res as any);
    // Only the handler's own "no such answer" means absent. Backstage's empty 404 (ask-docs not
    // mounted at this base URL) or the router's unknown-endpoint 404 is a misconfiguration.
    const body = error.body.error;
    if (
      res.status === 404 &&
      body.name === 'NotFoundError' &&
      body.message === noAnswerMessage(id)
    ) {
      return undefined;
    }
    throw error;
  }

  private async request(
    path: string,
    { credentials, signal }: AskDocsCallOptions,
    init: RequestInit,
  ): Promise<Response> {
    const base = await this.discovery.getBaseUrl('ask-docs');
    const { token } = await this.auth.getPluginRequestToken({
      onBehalfOf: credentials,
      targetPluginId: 'ask-docs',
    });
    return fetch(`${base}${path}`, {
      ...init,
      // Also covers reading the body: res.json() rejects once the signal aborts.
      signal,
      headers: {
        ...(init.headers as Record<string, string>),
        Authorization: `Bearer ${token}`,
      },
    });
  }
}
