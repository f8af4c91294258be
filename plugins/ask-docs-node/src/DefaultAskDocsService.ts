import {
  AuthService,
  BackstageCredentials,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import { ResponseError } from '@backstage/errors';
import {
  AnswerRecord,
  AskRequest,
  AskResponse,
  isAnswerId,
} from '@askdocs/plugin-ask-docs-common';
import { AskDocsService } from './AskDocsService';

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
    options: { credentials: BackstageCredentials },
  ): Promise<AskResponse> {
    const res = await this.request('/v1/ask', options.credentials, {
      method: 'POST',
      body: JSON.stringify(request),
      headers: { 'Content-Type': 'application/json' },
    });
    if (!res.ok) throw await ResponseError.fromResponse(res as any);
    return res.json();
  }

  async getAnswer(
    id: string,
    options: { credentials: BackstageCredentials },
  ): Promise<AnswerRecord | undefined> {
    // Anything else ('', '.', '..') could name another endpoint once the URL is normalised.
    if (!isAnswerId(id)) return undefined;
    const res = await this.request(
      `/v1/answers/${encodeURIComponent(id)}`,
      options.credentials,
      {},
    );
    if (res.status === 404) return undefined;
    if (!res.ok) throw await ResponseError.fromResponse(res as any);
    return res.json();
  }

  private async request(
    path: string,
    credentials: BackstageCredentials,
    init: RequestInit,
  ): Promise<Response> {
    const base = await this.discovery.getBaseUrl('ask-docs');
    const { token } = await this.auth.getPluginRequestToken({
      onBehalfOf: credentials,
      targetPluginId: 'ask-docs',
    });
    return fetch(`${base}${path}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        Authorization: `Bearer ${token}`,
      },
    });
  }
}
