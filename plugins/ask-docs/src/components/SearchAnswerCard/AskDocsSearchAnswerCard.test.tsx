import {
  act,
  fireEvent,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ResponseError } from '@backstage/errors';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import {
  MockSearchApi,
  SearchContextProvider,
  searchApiRef,
  useSearch,
} from '@backstage/plugin-search-react';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { groundedResponse } from '../../testUtils/fixtures';
import {
  controllableStream,
  mockAskDocsApi,
  streamOf,
} from '../../testUtils/mockApi';
import { AskDocsSearchAnswerCard } from './AskDocsSearchAnswerCard';

async function renderWithTerm(
  term: string,
  api = mockAskDocsApi({
    askStream: jest.fn(() => streamOf(groundedResponse)),
  }),
  autoAsk = true,
) {
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [askDocsApiRef, api],
        [searchApiRef, new MockSearchApi({ results: [] })],
      ]}
    >
      <SearchContextProvider initialState={{ term, types: [], filters: {} }}>
        <TermInput />
        <AskDocsSearchAnswerCard autoAsk={autoAsk} debounceMs={0} />
      </SearchContextProvider>
    </TestApiProvider>,
  );
  return api;
}

/** Stands in for the search bar: sets the context's term. */
function TermInput() {
  const { setTerm } = useSearch();
  return <input aria-label="term" onChange={e => setTerm(e.target.value)} />;
}

describe('AskDocsSearchAnswerCard', () => {
  it('offers to ask about the term and asks only when clicked (a model call each)', async () => {
    const api = await renderWithTerm('how to roll back', undefined, false);
    const button = await screen.findByTestId('ask-docs-search-ask');
    expect(button).toHaveTextContent('Ask the docs: “how to roll back”');
    await new Promise(r => setTimeout(r, 20));
    expect(api.askStream).not.toHaveBeenCalled();
    fireEvent.click(button);
    expect(
      await screen.findByTestId('ask-docs-state-grounded'),
    ).toBeInTheDocument();
    expect(api.askStream).toHaveBeenCalledTimes(1);
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'how to roll back',
    });
    // A new term drops the answer and offers the button again, asking nothing.
    fireEvent.change(screen.getByRole('textbox', { name: 'term' }), {
      target: { value: 'canary release' },
    });
    expect(await screen.findByTestId('ask-docs-search-ask')).toHaveTextContent(
      '“canary release”',
    );
    expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();
    expect(api.askStream).toHaveBeenCalledTimes(1);
    // Too short a term: no button.
    fireEvent.change(screen.getByRole('textbox', { name: 'term' }), {
      target: { value: 'ab' },
    });
    await waitFor(() =>
      expect(screen.queryByTestId('ask-docs-search-ask')).toBeNull(),
    );
  });

  it('keeps its live region across the click and moves focus to the answer', async () => {
    const stream = controllableStream();
    await renderWithTerm(
      'how to roll back',
      mockAskDocsApi({ askStream: jest.fn(() => stream.iterable) }),
      false,
    );
    const button = await screen.findByTestId('ask-docs-search-ask');
    // The live region is in place, empty, beside the button: its content is announced.
    const region = screen.getByRole('status');
    expect(region).toBeEmptyDOMElement();

    await userEvent.click(button);
    expect(screen.queryByTestId('ask-docs-search-ask')).toBeNull();
    expect(screen.getByRole('status')).toBe(region);
    expect(region).toHaveTextContent('Searching the documentation…');
    // Not lost with the button: on the answer's heading, read out as where the user is.
    const title = screen.getByRole('heading', { name: 'Answer from the docs' });
    expect(title).toHaveFocus();

    act(() => stream.push({ type: 'done', response: groundedResponse }));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(screen.getByRole('status')).toBe(region);
  });

  it('offers Retry after a server error, asks again and keeps focus on the answer', async () => {
    const failure = await ResponseError.fromResponse(
      new Response('<html>busy</html>', {
        status: 503,
        statusText: 'Service Unavailable',
        headers: { 'Content-Type': 'text/html' },
      }),
    );
    const api = mockAskDocsApi({
      askStream: jest
        .fn()
        .mockImplementationOnce(async function* fails() {
          throw failure;
        })
        .mockImplementation(() => streamOf(groundedResponse)),
    });
    await renderWithTerm('how to roll back', api, false);
    await userEvent.click(await screen.findByTestId('ask-docs-search-ask'));
    const error = await screen.findByTestId('ask-docs-state-error');
    await userEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(api.askStream).toHaveBeenCalledTimes(2);
    expect(
      screen.getByRole('heading', { name: 'Answer from the docs' }),
    ).toHaveFocus();
  });

  it('offers no Retry when the backend refused the question', async () => {
    const failure = await ResponseError.fromResponse(
      new Response(
        JSON.stringify({
          error: { name: 'InputError', message: 'question is too long' },
          response: { statusCode: 400 },
        }),
        { status: 400, headers: { 'Content-Type': 'application/json' } },
      ),
    );
    const api = mockAskDocsApi({
      askStream: jest.fn(async function* fails() {
        throw failure;
      }),
    });
    await renderWithTerm('how to roll back', api, false);
    await userEvent.click(await screen.findByTestId('ask-docs-search-ask'));
    const error = await screen.findByTestId('ask-docs-state-error');
    expect(error).toHaveTextContent('question is too long');
    expect(within(error).queryByRole('button')).toBeNull();
  });

  it('with autoAsk, answers the current search term', async () => {
    const api = await renderWithTerm('how to roll back');
    expect(
      await screen.findByTestId('ask-docs-state-grounded'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('ask-docs-search-answer')).toHaveTextContent(
      'Answer from the docs',
    );
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'how to roll back',
    });
  });

  it('with autoAsk, does not ask about a term that is too short', async () => {
    const api = await renderWithTerm('ab');
    await new Promise(r => setTimeout(r, 20));
    await waitFor(() => expect(api.askStream).not.toHaveBeenCalled());
    expect(screen.queryByTestId('ask-docs-search-answer')).toBeNull();
  });

  it("drops the previous term's answer and request as soon as the term changes", async () => {
    jest.useFakeTimers();
    try {
      const late = controllableStream();
      const api = mockAskDocsApi({
        askStream: jest
          .fn()
          .mockImplementationOnce(() => streamOf(groundedResponse))
          .mockImplementationOnce(() => late.iterable)
          .mockImplementation(() => new Promise(() => {})),
      });
      await renderInTestApp(
        <TestApiProvider
          apis={[
            [askDocsApiRef, api],
            [searchApiRef, new MockSearchApi({ results: [] })],
          ]}
        >
          <SearchContextProvider
            initialState={{ term: 'rollback', types: [], filters: {} }}
          >
            <TermInput />
            <AskDocsSearchAnswerCard autoAsk />
          </SearchContextProvider>
        </TestApiProvider>,
      );
      const term = screen.getByRole('textbox', { name: 'term' });
      await act(async () => {
        jest.advanceTimersByTime(800);
      });
      await waitFor(() =>
        expect(
          screen.getByTestId('ask-docs-state-grounded'),
        ).toBeInTheDocument(),
      );

      fireEvent.change(term, { target: { value: 'canary release' } });
      await act(async () => {
        jest.advanceTimersByTime(100);
      });
      expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();

      // A request still in flight for a replaced term is dropped too.
      await act(async () => {
        jest.advanceTimersByTime(800);
      });
      expect(api.askStream).toHaveBeenCalledTimes(2);
      expect(screen.getByTestId('ask-docs-streaming')).toBeInTheDocument();
      fireEvent.change(term, { target: { value: 'deployment' } });
      await act(async () => {
        late.push({ type: 'done', response: groundedResponse });
        jest.advanceTimersByTime(100);
      });
      expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();
      expect(api.askStream.mock.calls[1][1]?.signal?.aborted).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
