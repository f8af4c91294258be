import type {
  AnswerRecord,
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

/**
 * An api whose history lists `records` and whose getAnswer waits until the test calls
 * `load(id)`: for clicks overtaken by later ones.
 */
export function mockHistoryLoadedByHand(
  records: AnswerRecord[],
  overrides: Parameters<typeof mockAskDocsApi>[0] = {},
) {
  const loads = new Map<string, () => void>();
  const api = mockAskDocsApi({
    listAnswers: jest.fn(async () => records),
    getAnswer: jest.fn(
      (id: string) =>
        new Promise<AnswerRecord>(resolve =>
          loads.set(id, () => resolve(records.find(r => r.id === id)!)),
        ),
    ),
    ...overrides,
  });
  return { api, load: (id: string) => loads.get(id)!() };
}

/**
 * An API call that never answers: like AskDocsClient (fetch), it rejects with an AbortError
 * only once its signal aborts. A fake that answers anyway cannot show a cancelled call's error.
 */
export function untilAborted<T>(signal: AbortSignal | undefined): Promise<T> {
  // Without a signal the call could never be cancelled; fail fast instead of hanging.
  if (!signal) return Promise.reject(new Error('the call got no signal'));
  return new Promise<T>((_resolve, reject) => {
    // Named as fetch names it (as in AskDocsClient.test.ts).
    const abort = () =>
      reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}

/** A promise and the function that resolves it: a response the test sends when it chooses. */
export function byHand<T>() {
  let send: (value: T) => void = () => {};
  const promise = new Promise<T>(resolve => {
    send = resolve;
  });
  return { promise, send };
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
