import type { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
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
import { isAnswerId } from '@askdocs/plugin-ask-docs-common';
import { isKnownPhase } from './streamPhase';
import type {
  AskDocsApi,
  AskDocsRequestOptions,
  ListAnswersOptions,
} from './AskDocsApi';
import { readSseData, SseParser } from './sseParser';
import {
  IncompleteStreamError,
  InvalidAnswerIdError,
  MalformedStreamError,
} from './errors';

const PLUGIN_ID = 'ask-docs';

/** Talks to the ask-docs backend through the app's discovery and (authenticated) fetch APIs. */
export class AskDocsClient implements AskDocsApi {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
  }

  async ask(
    request: AskRequest,
    options?: AskDocsRequestOptions,
  ): Promise<AskResponse> {
    return this.json<AskResponse>('/v1/ask', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      signal: options?.signal,
    });
  }

  async *askStream(
    request: AskRequest,
    options?: AskDocsRequestOptions,
  ): AsyncGenerator<AskStreamEvent> {
    const response = await this.request('/v1/ask/stream', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
      },
      body: JSON.stringify(request),
      signal: options?.signal,
    });

    // A proxy or an older backend may answer with plain JSON; treat it as one 'done'.
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.includes('application/json')) {
      yield { type: 'done', response: (await response.json()) as AskResponse };
      return;
    }

    const payloads: AsyncIterable<string> | Iterable<string> = response.body
      ? readSseData(response.body as any)
      : await bufferedSseData(response);

    for await (const payload of payloads) {
      const event = parseStreamEvent(payload);
      if (!event) continue;
      yield event;
      if (event.type === 'done' || event.type === 'error') return;
    }
    throw new IncompleteStreamError();
  }

  async getAnswer(
    id: string,
    options?: AskDocsRequestOptions,
  ): Promise<AnswerRecord> {
    return this.json<AnswerRecord>(`/v1/answers/${answerId(id)}`, {
      signal: options?.signal,
    });
  }

  async listAnswers(options?: ListAnswersOptions): Promise<AnswerRecord[]> {
    const query = new URLSearchParams({ limit: String(options?.limit ?? 20) });
    if (options?.before !== undefined)
      query.set('before', answerId(options.before));
    const body = await this.json<{ items: AnswerRecord[] }>(
      `/v1/answers?${query}`,
      { signal: options?.signal },
    );
    return body.items ?? [];
  }

  async sendFeedback(
    id: string,
    feedback: AnswerFeedback,
    options?: AskDocsRequestOptions,
  ): Promise<void> {
    await this.request(`/v1/answers/${answerId(id)}/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(feedback),
      signal: options?.signal,
    });
  }

  async getIngestionProgress(): Promise<IngestionProgress> {
    return this.json<IngestionProgress>('/v1/ingestion');
  }

  async startIngestion(): Promise<IngestionRunStarted> {
    return this.json<IngestionRunStarted>('/v1/ingestion/runs', {
      method: 'POST',
    });
  }

  async health(): Promise<HealthResponse> {
    return this.json<HealthResponse>('/health');
  }

  private async json<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await this.request(path, init);
    return (await response.json()) as T;
  }

  /** Fetches and turns every non-2xx response into a ResponseError carrying the server's error. */
  private async request(path: string, init?: RequestInit): Promise<Response> {
    const baseUrl = await this.discoveryApi.getBaseUrl(PLUGIN_ID);
    const response = await this.fetchApi.fetch(`${baseUrl}${path}`, init);
    if (!response.ok) {
      throw await ResponseError.fromResponse(response);
    }
    return response;
  }
}

/** For runtimes without streaming bodies: the events arrive all at once. */
async function bufferedSseData(response: Response): Promise<string[]> {
  const parser = new SseParser();
  return [...parser.push(await response.text()), ...parser.flush()];
}

function parseStreamEvent(payload: string): AskStreamEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    throw new MalformedStreamError();
  }
  if (!value || typeof value !== 'object' || !('type' in value)) {
    return undefined;
  }
  // Unknown event types are skipped so that the backend can add new ones.
  const type = (value as { type: unknown }).type;
  if (type === 'status') {
    // A phase this UI has no text for (a newer backend's) is skipped: the last known one stays.
    return isKnownPhase((value as { phase?: unknown }).phase)
      ? (value as AskStreamEvent)
      : undefined;
  }
  if (type === 'delta' || type === 'done' || type === 'error') {
    return value as AskStreamEvent;
  }
  return undefined;
}

/** An answer id for a path; anything else could name another endpoint ('', '.', '..'). */
function answerId(id: string): string {
  if (!isAnswerId(id)) throw new InvalidAnswerIdError(id);
  return id;
}
