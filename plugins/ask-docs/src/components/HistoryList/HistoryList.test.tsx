import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { groundedResponse, recordOf } from '../../testUtils/fixtures';
import { mockHistoryLoadedByHand } from '../../testUtils/mockApi';
import { HistoryList } from './HistoryList';

describe('HistoryList', () => {
  it('selects only the item clicked last and keeps it loading until it loads', async () => {
    const a = recordOf(groundedResponse, { id: 'h-a', question: 'Question A' });
    const b = recordOf(groundedResponse, { id: 'h-b', question: 'Question B' });
    const { api, load } = mockHistoryLoadedByHand([a, b]);
    const onSelect = jest.fn();
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <HistoryList onSelect={onSelect} />
      </TestApiProvider>,
    );
    const items = await screen.findAllByTestId('ask-docs-history-item');
    await userEvent.click(within(items[0]).getByText('Question A'));
    await userEvent.click(within(items[1]).getByText('Question B'));

    await act(async () => load('h-a'));
    expect(onSelect).not.toHaveBeenCalled();
    // B is still loading: A finishing must not re-enable it.
    expect(items[1]).toHaveAttribute('aria-disabled', 'true');

    await act(async () => load('h-b'));
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSelect).toHaveBeenCalledWith(b);
    expect(items[1]).not.toHaveAttribute('aria-disabled', 'true');
  });
});
