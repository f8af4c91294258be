import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import type { AnswerRecord } from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from '../../api/AskDocsApi';
import type { AskDocsApi } from '../../api/AskDocsApi';
import { groundedResponse, recordOf } from '../../testUtils/fixtures';
import {
  byHand,
  mockAskDocsApi,
  mockHistoryLoadedByHand,
  untilAborted,
} from '../../testUtils/mockApi';
import { HistoryList } from './HistoryList';

/** Lets every promise settled so far run its handlers (a cancelled call's rejection too). */
const settle = () =>
  act(async () => {
    await new Promise(resolve => setTimeout(resolve, 0));
  });

describe('HistoryList', () => {
  const a = recordOf(groundedResponse, { id: 'h-a', question: 'Question A' });
  const b = recordOf(groundedResponse, { id: 'h-b', question: 'Question B' });
  /** The list of A and B with `onSelect`, A clicked, then B. */
  async function clickAThenB(api: AskDocsApi) {
    const onSelect = jest.fn();
    const { unmount } = await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <HistoryList onSelect={onSelect} />
      </TestApiProvider>,
    );
    const items = await screen.findAllByTestId('ask-docs-history-item');
    await userEvent.click(within(items[0]).getByText('Question A'));
    await userEvent.click(within(items[1]).getByText('Question B'));
    return { onSelect, unmount, items };
  }

  it('selects only the item clicked last and keeps it loading until it loads', async () => {
    const { api, load } = mockHistoryLoadedByHand([a, b]);
    const { onSelect, items } = await clickAThenB(api);

    await act(async () => load('h-a'));
    expect(onSelect).not.toHaveBeenCalled();
    // B is still loading: A finishing must not re-enable it.
    expect(items[1]).toHaveAttribute('aria-disabled', 'true');

    await act(async () => load('h-b'));
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSelect).toHaveBeenCalledWith(b);
    expect(items[1]).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('cancels a stored answer it loads when another is clicked or it unmounts', async () => {
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => [a, b]),
      getAnswer: jest.fn((_id: string, options) =>
        untilAborted<AnswerRecord>(options?.signal),
      ),
    });
    const { onSelect, unmount } = await clickAThenB(api);
    const [first, second] = api.getAnswer.mock.calls.map(c => c[1]?.signal);
    expect([first?.aborted, second?.aborted]).toEqual([true, false]);
    unmount();
    expect(second?.aborted).toBe(true);
    await settle();
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('cancels the listing when it unmounts', async () => {
    const api = mockAskDocsApi({
      listAnswers: jest.fn(() => new Promise<AnswerRecord[]>(() => {})),
    });
    const { unmount } = await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <HistoryList />
      </TestApiProvider>,
    );
    const signal = api.listAnswers.mock.calls[0][0]?.signal;
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
  });
});

describe('HistoryList: questions a plugin asked for the user', () => {
  it('names the plugin that asked, and nothing for questions asked here', async () => {
    const own = recordOf(groundedResponse, { id: 'h-own', question: 'Own' });
    const viaBot = recordOf(groundedResponse, {
      id: 'h-bot',
      question: 'Via bot',
      askedVia: 'plugin:chat-bot',
    });
    const { api } = mockHistoryLoadedByHand([own, viaBot]);
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <HistoryList />
      </TestApiProvider>,
    );
    const [first, second] = await screen.findAllByTestId(
      'ask-docs-history-item',
    );
    expect(first).not.toHaveTextContent(/asked through/);
    expect(second).toHaveTextContent(/asked through plugin:chat-bot/);
  });
});

describe('HistoryList paging', () => {
  const record = (n: number) =>
    recordOf(groundedResponse, { id: `h-${n}`, question: `Question ${n}` });

  async function renderList(api: AskDocsApi, limit = 2) {
    // Stands in for a panel whose new answer refreshes the list.
    function Host() {
      const [key, setKey] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setKey(k => k + 1)}>
            refresh
          </button>
          <HistoryList limit={limit} refreshKey={key} />
        </>
      );
    }
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <Host />
      </TestApiProvider>,
    );
  }

  const questions = () =>
    screen
      .getAllByTestId('ask-docs-history-item')
      .map(item => within(item).getByText(/^Question/).textContent);
  const olderButton = () =>
    screen.queryByRole('button', { name: 'Show older questions' });

  it('appends the page before the last item without duplicates until a page is short', async () => {
    const api = mockAskDocsApi({
      listAnswers: jest
        .fn()
        .mockResolvedValueOnce([record(1), record(2)])
        // Overlaps when an answer was added meanwhile; a short page is the last.
        .mockResolvedValueOnce([record(2), record(3)])
        .mockResolvedValueOnce([record(4)]),
    });
    await renderList(api);
    await screen.findByText('Question 2');

    await userEvent.click(olderButton()!);
    await screen.findByText('Question 3');
    expect(api.listAnswers).toHaveBeenLastCalledWith({
      limit: 2,
      before: 'h-2',
      signal: expect.any(AbortSignal),
    });
    expect(questions()).toEqual(['Question 1', 'Question 2', 'Question 3']);

    await userEvent.click(olderButton()!);
    await screen.findByText('Question 4');
    expect(api.listAnswers).toHaveBeenLastCalledWith({
      limit: 2,
      before: 'h-3',
      signal: expect.any(AbortSignal),
    });
    expect(olderButton()).toBeNull();
  });

  it('offers older questions only while the last page was full', async () => {
    const api = mockAskDocsApi({
      listAnswers: jest
        .fn()
        .mockResolvedValueOnce([record(1)])
        .mockResolvedValueOnce([record(0), record(1)]),
    });
    await renderList(api);
    await screen.findByText('Question 1');
    expect(olderButton()).toBeNull();

    await userEvent.click(screen.getByText('refresh'));
    await screen.findByText('Question 0');
    expect(olderButton()).toBeEnabled();
  });

  it('reloads from the top on refresh and drops an older page asked for before it', async () => {
    let sendOlder: (page: AnswerRecord[]) => void = () => {};
    const api = mockAskDocsApi({
      listAnswers: jest
        .fn()
        .mockResolvedValueOnce([record(1), record(2)])
        .mockImplementationOnce(
          () =>
            new Promise<AnswerRecord[]>(resolve => {
              sendOlder = resolve;
            }),
        )
        .mockResolvedValueOnce([record(0), record(1)]),
    });
    await renderList(api);
    await screen.findByText('Question 2');
    await userEvent.click(olderButton()!);

    await userEvent.click(screen.getByText('refresh'));
    await screen.findByText('Question 0');
    expect(api.listAnswers).toHaveBeenLastCalledWith({
      limit: 2,
      signal: expect.any(AbortSignal),
    });
    // The reload cancelled the older page (this fake answers it anyway).
    expect(api.listAnswers.mock.calls[1][0]?.signal?.aborted).toBe(true);
    expect(api.listAnswers.mock.calls[2][0]?.signal?.aborted).toBe(false);
    await act(async () => sendOlder([record(3)]));
    expect(screen.queryByText('Question 3')).toBeNull();
    expect(questions()).toEqual(['Question 0', 'Question 1']);
    expect(olderButton()).toBeEnabled();
  });

  /** No error for the cancelled call, then the new listing once `top` answers. */
  async function expectNoErrorThenListing(top: {
    send: (items: AnswerRecord[]) => void;
  }) {
    await settle();
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => top.send([record(0), record(1)]));
    expect(await screen.findByText('Question 0')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(questions()).toEqual(['Question 0', 'Question 1']);
  }

  it('shows no error for a listing that a refresh cancelled', async () => {
    const top = byHand<AnswerRecord[]>();
    const api = mockAskDocsApi({
      listAnswers: jest
        .fn()
        // Like fetch: rejects with an AbortError once the refresh aborts it.
        .mockImplementationOnce(({ signal }: { signal?: AbortSignal }) =>
          untilAborted(signal),
        )
        .mockImplementationOnce(() => top.promise),
    });
    await renderList(api);
    await userEvent.click(screen.getByText('refresh'));
    expect(api.listAnswers.mock.calls[0][0]?.signal?.aborted).toBe(true);

    // The cancelled listing has failed; the new one is still pending.
    await expectNoErrorThenListing(top);
  });

  it('shows no error for an older page that a refresh cancelled', async () => {
    const top = byHand<AnswerRecord[]>();
    const api = mockAskDocsApi({
      listAnswers: jest
        .fn()
        .mockResolvedValueOnce([record(1), record(2)])
        // Like fetch: rejects with an AbortError once the refresh aborts it.
        .mockImplementationOnce(({ signal }: { signal?: AbortSignal }) =>
          untilAborted(signal),
        )
        .mockImplementationOnce(() => top.promise),
    });
    await renderList(api);
    await screen.findByText('Question 2');
    await userEvent.click(olderButton()!);
    await userEvent.click(screen.getByText('refresh'));
    expect(api.listAnswers.mock.calls[1][0]?.signal?.aborted).toBe(true);

    // The cancelled page has failed; the new listing is still pending.
    await expectNoErrorThenListing(top);
    expect(olderButton()).toBeEnabled();
  });

  it('asks for no older page while the list reloads from the top', async () => {
    let sendTop: (page: AnswerRecord[]) => void = () => {};
    const api = mockAskDocsApi({
      listAnswers: jest
        .fn()
        .mockResolvedValueOnce([record(1), record(2)])
        .mockImplementationOnce(
          () =>
            new Promise<AnswerRecord[]>(resolve => {
              sendTop = resolve;
            }),
        ),
    });
    await renderList(api);
    await screen.findByText('Question 2');
    await userEvent.click(screen.getByText('refresh'));
    // The list shown is the old one: an older page asked for now could skip an answer.
    expect(olderButton()).toBeDisabled();
    await act(async () => sendTop([record(0), record(1)]));
    await screen.findByText('Question 0');
    expect(olderButton()).toBeEnabled();
  });

  it('stops offering older questions when a full page brings nothing new', async () => {
    // An API that ignores `before` answers the top page again.
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => [record(1), record(2)]),
    });
    await renderList(api);
    await screen.findByText('Question 2');
    await userEvent.click(olderButton()!);
    await waitFor(() => expect(olderButton()).toBeNull());
    expect(questions()).toEqual(['Question 1', 'Question 2']);
  });
});
