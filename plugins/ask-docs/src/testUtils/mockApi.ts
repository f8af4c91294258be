import type {
  AskResponse,
  AskStreamEvent,
} from '@askdocs/plugin-ask-docs-common';
import type { AskDocsApi } from '../api/AskDocsApi';

/** An AskDocsApi whose every method is a jest mock; unmocked calls reject loudly. */
export function mockAskDocsApi(
  overrides: Partial<Record<keyof AskDocsApi, jest.Mock<any, any>>> = {},
): jest.Mocked<AskDocsApi> {
  const unexpected = (name: string) =>
    jest.fn(async () => {
      throw new Error(`unexpected call to ${name}`);
    });
  return {
    ask: unexpected('ask'),
    askStream: jest.fn(() => {
      throw new Error('unexpected call to askStream');
    }),
    getAnswer: unexpected('getAnswer'),
    listAnswers: jest.fn(async () => []),
    sendFeedback: jest.fn(async () => {}),
    getIngestionProgress: unexpected('getIngestionProgress'),
    startIngestion: unexpected('startIngestion'),
    health: unexpected('health'),
    ...overrides,
  } as unknown as jest.Mocked<AskDocsApi>;
}

/** A stream the test feeds event by event, to observe rendering in between. */
export function controllableStream() {
  const queue: AskStreamEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const nextChange = () =>
    new Promise<void>(resolve => {
      wake = resolve;
    });
  async function* iterate(): AsyncGenerator<AskStreamEvent> {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      if (ended) return;
      await nextChange();
    }
  }
  return {
    iterable: iterate(),
    push(event: AskStreamEvent) {
      queue.push(event);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
  };
}

/** A stream that immediately delivers a whole answer. */
export async function* streamOf(
  response: AskResponse,
  deltas: string[] = [],
): AsyncGenerator<AskStreamEvent> {
  yield { type: 'status', phase: 'retrieving' };
  for (const text of deltas) yield { type: 'delta', text };
  yield { type: 'done', response };
}
