import {
  act,
  fireEvent,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { ResponseError } from '@backstage/errors';
import { askDocsApiRef } from '../../api/AskDocsApi';
import type { AskDocsApi, AskDocsRequestOptions } from '../../api/AskDocsApi';
import {
  evidenceOnlyResponse,
  groundedResponse,
  notInKbResponse,
  recordOf,
} from '../../testUtils/fixtures';
import {
  controllableStream,
  mockAskDocsApi,
  mockHistoryLoadedByHand,
  streamOf,
  untilAborted,
} from '../../testUtils/mockApi';
import { IncompleteStreamError } from '../../api/errors';
import { useAskDocs } from '../../hooks/useAskDocs';
import type { UseAskDocs } from '../../hooks/useAskDocs';
import { AskDocsPanel } from './AskDocsPanel';
import type { AskDocsPanelProps } from './AskDocsPanel';

async function renderPanel(api: AskDocsApi, props: AskDocsPanelProps = {}) {
  await renderInTestApp(
    <TestApiProvider apis={[[askDocsApiRef, api]]}>
      <AskDocsPanel {...props} />
    </TestApiProvider>,
  );
}

/** Lets every promise settled so far run its handlers (a cancelled call's rejection too). */
const settle = () =>
  act(async () => {
    await new Promise(resolve => setTimeout(resolve, 0));
  });

/** A refusal as AskDocsClient throws it: the backend's JSON error, or a proxy's page. */
function refusal(status: number, message: string, json = true) {
  const body = json
    ? JSON.stringify({
        error: { name: 'InputError', message },
        response: { statusCode: status },
      })
    : `<html><body><h1>${message}</h1></body></html>`;
  return ResponseError.fromResponse(
    new Response(body, {
      status,
      ...(json ? {} : { statusText: message }),
      headers: { 'Content-Type': json ? 'application/json' : 'text/html' },
    }),
  );
}

/** An api whose askStream fails with `failure` on the first ask and answers afterwards. */
function failingOnce(failure: () => unknown) {
  return mockAskDocsApi({
    askStream: jest
      .fn()
      .mockImplementationOnce(async function* fails() {
        throw await failure();
      })
      .mockImplementation(() => streamOf(groundedResponse)),
  });
}

async function askQuestion(text: string) {
  await userEvent.type(screen.getByTestId('ask-docs-question'), text);
  await userEvent.click(screen.getByTestId('ask-docs-submit'));
}

describe('AskDocsPanel', () => {
  it('renders answer deltas as they arrive, then the grounded answer', async () => {
    const stream = controllableStream();
    const api = mockAskDocsApi({ askStream: jest.fn(() => stream.iterable) });
    await renderPanel(api);
    await askQuestion('How do I roll back?');

    expect(api.askStream).toHaveBeenCalledWith(
      { question: 'How do I roll back?' },
      expect.objectContaining({ signal: expect.any(Object) }),
    );
    expect(await screen.findByTestId('ask-docs-streaming')).toHaveTextContent(
      'Searching the documentation',
    );

    act(() => stream.push({ type: 'delta', text: 'Roll back with ' }));
    await waitFor(() =>
      expect(screen.getByTestId('ask-docs-streaming')).toHaveTextContent(
        'Roll back with',
      ),
    );
    // Streamed text is not an answer yet: it may end as "Not an answer".
    expect(screen.getByTestId('ask-docs-streaming')).toHaveTextContent(
      'a draft until its citations are checked',
    );
    act(() =>
      stream.push({ type: 'delta', text: 'the tool [Release process]' }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('ask-docs-streaming')).toHaveTextContent(
        'Roll back with the tool [Release process]',
      ),
    );
    // Sources are not known yet, so the marker is not a link while streaming.
    expect(
      within(screen.getByTestId('ask-docs-streaming')).queryByRole('link'),
    ).toBeNull();
    expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();

    act(() => stream.push({ type: 'done', response: groundedResponse }));
    expect(
      await screen.findByTestId('ask-docs-state-grounded'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('ask-docs-streaming')).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Release process › Rollback' }),
    ).toBeInTheDocument();
  });

  it('passes the scope along with the question', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(() => streamOf(notInKbResponse)),
    });
    await renderPanel(api, { scope: { entityRefs: ['component:default/x'] } });
    await askQuestion('Who owns this?');
    expect(
      await screen.findByTestId('ask-docs-state-not-in-kb'),
    ).toBeInTheDocument();
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'Who owns this?',
      scope: { entityRefs: ['component:default/x'] },
    });
  });

  it('asks follow-ups in the thread of the last answer until "New question"', async () => {
    const second = { ...groundedResponse, id: 'answer-2' };
    const api = mockAskDocsApi({
      askStream: jest
        .fn()
        .mockImplementationOnce(() => streamOf(groundedResponse))
        .mockImplementationOnce(() => streamOf(second))
        .mockImplementationOnce(() => streamOf(notInKbResponse)),
    });
    await renderPanel(api);
    expect(screen.queryByTestId('ask-docs-new-question')).toBeNull();
    await askQuestion('How do I deploy?');
    await screen.findByTestId('ask-docs-state-grounded');
    expect(screen.queryByTestId('ask-docs-thread')).toBeNull();

    await userEvent.clear(screen.getByTestId('ask-docs-question'));
    await askQuestion('And how do I roll that back?');
    await waitFor(() => expect(api.askStream).toHaveBeenCalledTimes(2));
    expect(api.askStream.mock.calls[1][0]).toEqual({
      question: 'And how do I roll that back?',
      threadId: groundedResponse.id,
    });
    // The thread's earlier question is shown above the current answer.
    expect(await screen.findByTestId('ask-docs-thread')).toHaveTextContent(
      'How do I deploy?',
    );

    await userEvent.click(screen.getByTestId('ask-docs-new-question'));
    expect(screen.queryByTestId('ask-docs-thread')).toBeNull();
    expect(screen.queryByTestId('ask-docs-new-question')).toBeNull();
    await askQuestion('Who owns payments?');
    await waitFor(() => expect(api.askStream).toHaveBeenCalledTimes(3));
    // A new question carries no thread id.
    expect(api.askStream.mock.calls[2][0]).toEqual({
      question: 'Who owns payments?',
    });
  });

  it('shows the evidence-only state from the stream', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(() => streamOf(evidenceOnlyResponse)),
    });
    await renderPanel(api);
    await askQuestion('What is a canary?');
    expect(
      await screen.findByTestId('ask-docs-state-evidence-only'),
    ).toHaveTextContent('Not an answer');
  });

  it('shows an error state for an error event, with a working retry', async () => {
    const api = mockAskDocsApi({
      askStream: jest
        .fn()
        .mockImplementationOnce(async function* fails() {
          yield { type: 'error', message: 'retrieval failed' };
        })
        .mockImplementationOnce(() => streamOf(groundedResponse)),
    });
    await renderPanel(api);
    await askQuestion('How do I roll back?');
    const error = await screen.findByTestId('ask-docs-state-error');
    expect(error).toHaveTextContent('retrieval failed');
    expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();

    await userEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByTestId('ask-docs-state-grounded'),
    ).toBeInTheDocument();
    expect(api.askStream).toHaveBeenCalledTimes(2);
    expect(api.askStream.mock.calls[1][0]).toEqual({
      question: 'How do I roll back?',
    });
  });

  it('reports an answer stream that ends without its final event', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(async function* cutOff() {
        yield { type: 'status', phase: 'generating' };
        yield { type: 'delta', text: 'Roll back with' };
      }),
    });
    await renderPanel(api);
    await askQuestion('How do I roll back?');
    expect(await screen.findByTestId('ask-docs-state-error')).toHaveTextContent(
      'The answer stream ended before the answer was complete',
    );
    expect(screen.queryByTestId('ask-docs-streaming')).toBeNull();
  });

  it('shows an error state when the request itself fails', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(async function* fails() {
        throw new Error('network unreachable');
      }),
    });
    await renderPanel(api);
    await askQuestion('anything');
    expect(await screen.findByTestId('ask-docs-state-error')).toHaveTextContent(
      'network unreachable',
    );
  });

  it('sends a long question whole and shows why the backend refused it', async () => {
    const long = `${'Why does the release pipeline stall? '.repeat(70)}`.trim();
    expect(long.length).toBeGreaterThan(2000);
    const api = failingOnce(() =>
      refusal(400, 'question is too long (2589 characters, at most 2000)'),
    );
    await renderPanel(api);
    await userEvent.click(screen.getByTestId('ask-docs-question'));
    await userEvent.paste(long);
    await userEvent.click(screen.getByTestId('ask-docs-submit'));
    const error = await screen.findByTestId('ask-docs-state-error');
    expect(error).toHaveTextContent('too long');
    // Asking the same again would be refused the same way.
    expect(within(error).queryByRole('button')).toBeNull();
    // Not cut to fit: the backend's limit is configurable and its error explains it.
    expect(api.askStream.mock.calls[0][0].question).toBe(long);
  });

  it('ignores late events of a question that was replaced by a newer one', async () => {
    const first = controllableStream();
    const api = mockAskDocsApi({
      askStream: jest
        .fn()
        .mockImplementationOnce(() => first.iterable)
        .mockImplementationOnce(() => streamOf(notInKbResponse)),
    });
    await renderPanel(api);
    await askQuestion('first');
    await screen.findByTestId('ask-docs-streaming');
    const input = screen.getByTestId('ask-docs-question');
    await userEvent.clear(input);
    await userEvent.type(input, 'second{enter}');
    expect(
      await screen.findByTestId('ask-docs-state-not-in-kb'),
    ).toBeInTheDocument();

    act(() => first.push({ type: 'done', response: groundedResponse }));
    await new Promise(r => setTimeout(r, 20));
    expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();
    expect(screen.getByTestId('ask-docs-state-not-in-kb')).toBeInTheDocument();
  });

  it('names the question box by its label', async () => {
    await renderPanel(mockAskDocsApi());
    const box = screen.getByRole('textbox', {
      name: 'Ask a question about the documentation',
    });
    expect(box).toBe(screen.getByTestId('ask-docs-question'));
  });

  it('announces the finished answer in one polite status region', async () => {
    const stream = controllableStream();
    const api = mockAskDocsApi({ askStream: jest.fn(() => stream.iterable) });
    await renderPanel(api);
    await askQuestion('How do I roll back?');
    await screen.findByTestId('ask-docs-streaming');
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    // Quiet while the text streams in, so it is read once, whole.
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(
      screen.getByRole('progressbar', { name: 'Searching the documentation…' }),
    ).toBeInTheDocument();

    act(() => stream.push({ type: 'done', response: groundedResponse }));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Roll back with the release tool',
    );
    expect(screen.getByRole('status')).toHaveAttribute('aria-busy', 'false');
    // Not atomic (role="status" is by default): rating the answer reads only the change.
    expect(screen.getByRole('status')).toHaveAttribute('aria-atomic', 'false');
  });

  it("shows the request id of the stream's error event, to find the server log", async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(async function* fails() {
        yield { type: 'error', message: 'Internal error', requestId: 'r-1' };
      }),
    });
    await renderPanel(api);
    await askQuestion('How do I roll back?');
    const error = await screen.findByTestId('ask-docs-state-error');
    expect(error).toHaveTextContent('Internal error');
    expect(error).toHaveTextContent('request id r-1');
  });

  it('shows the request id of an internal error response', async () => {
    const failure = await ResponseError.fromResponse(
      new Response(
        JSON.stringify({
          error: {
            name: 'InternalError',
            message: 'Internal error',
            requestId: 'r-2',
          },
          response: { statusCode: 500 },
        }),
        { status: 500, headers: { 'Content-Type': 'application/json' } },
      ),
    );
    const api = mockAskDocsApi({
      askStream: jest.fn(async function* fails() {
        throw failure;
      }),
    });
    await renderPanel(api);
    await askQuestion('How do I roll back?');
    const error = await screen.findByTestId('ask-docs-state-error');
    expect(error).toHaveTextContent('Internal error');
    expect(error).toHaveTextContent('request id r-2');
  });

  it('does not ask an empty question', async () => {
    const api = mockAskDocsApi();
    await renderPanel(api);
    expect(screen.getByTestId('ask-docs-submit')).toBeDisabled();
    await userEvent.type(screen.getByTestId('ask-docs-question'), '   ');
    // Submitted anyway (a disabled button does not submit; an assistive tool or script may).
    fireEvent.submit(screen.getByTestId('ask-docs-form'));
    await settle();
    expect(api.askStream).not.toHaveBeenCalled();
    expect(screen.queryByTestId('ask-docs-streaming')).toBeNull();
  });

  it('puts focus on the question box after "New question", whose button goes away', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(() => streamOf(groundedResponse)),
    });
    await renderPanel(api);
    await askQuestion('How do I deploy?');
    await screen.findByTestId('ask-docs-state-grounded');
    await userEvent.click(screen.getByTestId('ask-docs-new-question'));
    expect(screen.queryByTestId('ask-docs-new-question')).toBeNull();
    expect(screen.getByTestId('ask-docs-question')).toHaveFocus();
    expect(screen.getByTestId('ask-docs-question')).toHaveValue('');
  });

  it('puts focus on the question box after Retry, which the progress replaces', async () => {
    const stream = controllableStream();
    const api = mockAskDocsApi({
      askStream: jest
        .fn()
        .mockImplementationOnce(async function* fails() {
          yield { type: 'error', message: 'retrieval failed' };
        })
        .mockImplementationOnce(() => stream.iterable),
    });
    await renderPanel(api);
    await askQuestion('How do I roll back?');
    const error = await screen.findByTestId('ask-docs-state-error');
    await userEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('ask-docs-streaming')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.getByTestId('ask-docs-question')).toHaveFocus();
  });

  it.each([
    ['a network error', () => new TypeError('Failed to fetch')],
    [
      'a 503 while the backend restarts',
      () => refusal(503, 'Service Unavailable', false),
    ],
    ['a 500', () => refusal(500, 'Internal error')],
    ['a cut-off stream', () => new IncompleteStreamError()],
  ])('offers Retry after %s, and retrying asks again', async (_, failure) => {
    const api = failingOnce(failure);
    await renderPanel(api);
    await askQuestion('How do I roll back?');
    const error = await screen.findByTestId('ask-docs-state-error');
    // A failure is the one alert of the panel.
    expect(screen.getByRole('alert')).toBe(error);
    await userEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(api.askStream).toHaveBeenCalledTimes(2);
    expect(api.askStream.mock.calls[1][0]).toEqual({
      question: 'How do I roll back?',
    });
  });

  it.each([
    [
      '400, too many terms',
      () => refusal(400, 'the question has too many terms'),
    ],
    ['403', () => refusal(403, 'not allowed to ask')],
    ['413 from a proxy', () => refusal(413, 'Payload Too Large', false)],
    ['415', () => refusal(415, 'unsupported media type')],
  ])(
    'offers no Retry after a %s, which would fail again',
    async (_, failure) => {
      const api = failingOnce(failure);
      await renderPanel(api);
      await askQuestion('How do I roll back?');
      const error = await screen.findByTestId('ask-docs-state-error');
      expect(within(error).queryByRole('button')).toBeNull();
      expect(api.askStream).toHaveBeenCalledTimes(1);
    },
  );

  it('keeps the status of a refused question in its error state', async () => {
    const api = failingOnce(() => refusal(413, 'Payload Too Large', false));
    let hook: UseAskDocs | undefined;
    const Probe = () => {
      hook = useAskDocs();
      return null;
    };
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <Probe />
      </TestApiProvider>,
    );
    await act(() => hook!.ask('How do I roll back?'));
    expect(hook!.state).toEqual({
      phase: 'error',
      question: 'How do I roll back?',
      status: 413,
      retryable: false,
      message: 'Request failed (413 Payload Too Large)',
    });
  });

  it('keeps the last known progress text for a status phase it has no text for', async () => {
    const stream = controllableStream();
    const api = mockAskDocsApi({ askStream: jest.fn(() => stream.iterable) });
    await renderPanel(api);
    await askQuestion('How do I roll back?');
    const progress = await screen.findByTestId('ask-docs-streaming');
    act(() => stream.push({ type: 'status', phase: 'generating' }));
    await waitFor(() =>
      expect(progress).toHaveTextContent('Writing the answer'),
    );
    // A newer backend's phase, passed on by an AskDocsApi other than AskDocsClient.
    act(() => stream.push({ type: 'status', phase: 'reranking' } as any));
    await settle();
    expect(progress).toHaveTextContent('Writing the answer');
    expect(progress).not.toHaveTextContent('askState');
    expect(screen.getByRole('progressbar')).toHaveAccessibleName(
      /^Writing the answer/,
    );
  });

  it('keeps a new question when a history answer clicked before it loads late', async () => {
    const old = recordOf(groundedResponse, { question: 'An old question' });
    const { api, load } = mockHistoryLoadedByHand([old], {
      askStream: jest.fn(() => streamOf(notInKbResponse)),
    });
    await renderPanel(api, { showHistory: true });
    await userEvent.click(await screen.findByText('An old question'));
    expect(api.getAnswer).toHaveBeenCalledWith('a-1', {
      signal: expect.any(AbortSignal),
    });

    await askQuestion('A new question');
    await screen.findByTestId('ask-docs-state-not-in-kb');
    expect(api.getAnswer.mock.calls[0][1]?.signal?.aborted).toBe(true);
    await act(async () => load(old.id));
    await new Promise(r => setTimeout(r, 20));
    expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();
    expect(screen.getByTestId('ask-docs-state-not-in-kb')).toBeInTheDocument();
    expect(screen.getByTestId('ask-docs-question')).toHaveValue(
      'A new question',
    );
  });

  it('shows the history answer clicked last, whichever loads first', async () => {
    const a = recordOf(notInKbResponse, { id: 'h-a', question: 'Question A' });
    const b = recordOf(groundedResponse, { id: 'h-b', question: 'Question B' });
    const { api, load } = mockHistoryLoadedByHand([a, b]);
    await renderPanel(api, { showHistory: true });
    await userEvent.click(await screen.findByText('Question A'));
    await userEvent.click(screen.getByText('Question B'));
    // The click on B cancelled the load of A (this fake answers it anyway).
    expect(api.getAnswer.mock.calls[0][1]?.signal?.aborted).toBe(true);
    expect(api.getAnswer.mock.calls[1][1]?.signal?.aborted).toBe(false);
    await act(async () => load('h-b'));
    expect(
      await screen.findByTestId('ask-docs-state-grounded'),
    ).toBeInTheDocument();
    await act(async () => load('h-a'));
    await new Promise(r => setTimeout(r, 20));
    expect(screen.queryByTestId('ask-docs-state-not-in-kb')).toBeNull();
    expect(screen.getByTestId('ask-docs-question')).toHaveValue('Question B');
  });

  it('shows no error for a stored answer whose load a new question cancelled', async () => {
    const old = recordOf(groundedResponse, { question: 'An old question' });
    const stream = controllableStream();
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => [old]),
      // Like fetch: rejects with an AbortError once the load is aborted.
      getAnswer: jest.fn((_id: string, options?: AskDocsRequestOptions) =>
        untilAborted(options?.signal),
      ),
      askStream: jest.fn(() => stream.iterable),
    });
    await renderPanel(api, { showHistory: true });
    await userEvent.click(await screen.findByText('An old question'));
    await askQuestion('A new question');
    await screen.findByTestId('ask-docs-streaming');
    expect(api.getAnswer.mock.calls[0][1]?.signal?.aborted).toBe(true);

    // While the new answer streams (its end reloads the history, which clears any error).
    await settle();
    const history = screen.getByTestId('ask-docs-history');
    expect(within(history).queryByRole('alert')).toBeNull();
    expect(screen.queryByText('aborted')).toBeNull();
    expect(screen.getByTestId('ask-docs-streaming')).toBeInTheDocument();

    act(() => stream.push({ type: 'done', response: notInKbResponse }));
    await screen.findByTestId('ask-docs-state-not-in-kb');
    expect(screen.queryByText('aborted')).toBeNull();
    expect(screen.queryByTestId('ask-docs-state-error')).toBeNull();
    expect(screen.getByTestId('ask-docs-question')).toHaveValue(
      'A new question',
    );
  });

  it('shows no error for a stored answer whose load a click on another cancelled', async () => {
    const a = recordOf(notInKbResponse, { id: 'h-a', question: 'Question A' });
    const b = recordOf(groundedResponse, { id: 'h-b', question: 'Question B' });
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => [a, b]),
      // A's load rejects with an AbortError once aborted, as fetch does; B's answers.
      getAnswer: jest.fn((id: string, options?: AskDocsRequestOptions) =>
        id === a.id ? untilAborted(options?.signal) : Promise.resolve(b),
      ),
    });
    await renderPanel(api, { showHistory: true });
    await userEvent.click(await screen.findByText('Question A'));
    await userEvent.click(screen.getByText('Question B'));
    expect(
      await screen.findByTestId('ask-docs-state-grounded'),
    ).toBeInTheDocument();
    expect(api.getAnswer.mock.calls[0][1]?.signal?.aborted).toBe(true);

    await settle();
    const history = screen.getByTestId('ask-docs-history');
    expect(within(history).queryByRole('alert')).toBeNull();
    expect(screen.queryByText('aborted')).toBeNull();
    expect(screen.getByTestId('ask-docs-state-grounded')).toBeInTheDocument();
    expect(screen.getByTestId('ask-docs-question')).toHaveValue('Question B');
  });

  it('cancels loading a stored answer when the panel unmounts', async () => {
    const old = recordOf(groundedResponse, { question: 'An old question' });
    const { api } = mockHistoryLoadedByHand([old]);
    const { unmount } = await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <AskDocsPanel showHistory />
      </TestApiProvider>,
    );
    await userEvent.click(await screen.findByText('An old question'));
    const signal = api.getAnswer.mock.calls[0][1]?.signal;
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
  });

  it("asks a stored answer's follow-ups in its scope, a new question in the panel's", async () => {
    const stored = recordOf(groundedResponse, {
      id: 'h-1',
      question: 'How do payments settle?',
      scope: { entityRefs: ['component:default/payments'] },
    });
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => [stored]),
      getAnswer: jest.fn(async () => stored),
      askStream: jest.fn(() => streamOf(notInKbResponse)),
    });
    const panelScope = { entityRefs: ['component:default/billing'] };
    await renderPanel(api, { showHistory: true, scope: panelScope });
    await userEvent.click(await screen.findByText('How do payments settle?'));
    await screen.findByTestId('ask-docs-state-grounded');

    await userEvent.clear(screen.getByTestId('ask-docs-question'));
    await askQuestion('And how long does it take?');
    await screen.findByTestId('ask-docs-state-not-in-kb');
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'And how long does it take?',
      scope: stored.scope,
      threadId: 'h-1',
    });

    await userEvent.click(screen.getByTestId('ask-docs-new-question'));
    await askQuestion('Who owns billing?');
    await waitFor(() => expect(api.askStream).toHaveBeenCalledTimes(2));
    expect(api.askStream.mock.calls[1][0]).toEqual({
      question: 'Who owns billing?',
      scope: panelScope,
    });
  });

  it("asks a follow-up of a stored answer across all docs in the panel's scope", async () => {
    const stored = recordOf(groundedResponse, {
      id: 'h-2',
      question: 'Who approves releases?',
      scope: {},
    });
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => [stored]),
      getAnswer: jest.fn(async () => stored),
      askStream: jest.fn(() => streamOf(notInKbResponse)),
    });
    const panelScope = { entityRefs: ['component:default/billing'] };
    await renderPanel(api, { showHistory: true, scope: panelScope });
    await userEvent.click(await screen.findByText('Who approves releases?'));
    await screen.findByTestId('ask-docs-state-grounded');

    await userEvent.clear(screen.getByTestId('ask-docs-question'));
    await askQuestion('And hotfixes?');
    await screen.findByTestId('ask-docs-state-not-in-kb');
    // Not widened to all docs: the stored answer's empty scope names no entity.
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'And hotfixes?',
      scope: panelScope,
      threadId: 'h-2',
    });
  });

  it('lists previous questions and reloads one with its outdated notice', async () => {
    const record = recordOf(groundedResponse, {
      question: 'How did we roll back last time?',
      outdatedSources: [
        {
          documentId: 'doc-release',
          title: 'Release process',
          answeredRevision: 'r1',
          currentRevision: 'r2',
        },
      ],
    });
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => [record]),
      getAnswer: jest.fn(async () => record),
      askStream: jest.fn(() => streamOf(notInKbResponse)),
    });
    await renderPanel(api, { showHistory: true });

    const history = screen.getByTestId('ask-docs-history');
    const item = await within(history).findByText(
      'How did we roll back last time?',
    );
    expect(api.listAnswers).toHaveBeenCalledWith({
      limit: 20,
      signal: expect.any(AbortSignal),
    });
    await userEvent.click(item);

    expect(api.getAnswer).toHaveBeenCalledWith('a-1', {
      signal: expect.any(AbortSignal),
    });
    expect(
      await screen.findByTestId('ask-docs-state-grounded'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('ask-docs-outdated')).toBeInTheDocument();
    expect(screen.getByTestId('ask-docs-question')).toHaveValue(
      'How did we roll back last time?',
    );
    // Replaying does not ask the model again or reload the list.
    expect(api.askStream).not.toHaveBeenCalled();
    expect(api.listAnswers).toHaveBeenCalledTimes(1);

    // A newly asked question refreshes the history.
    await userEvent.click(screen.getByTestId('ask-docs-submit'));
    await screen.findByTestId('ask-docs-state-not-in-kb');
    await waitFor(() => expect(api.listAnswers).toHaveBeenCalledTimes(2));
  });
});
