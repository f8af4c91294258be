import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, useLocation } from 'react-router-dom';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { groundedResponse } from '../../testUtils/fixtures';
import { mockAskDocsApi, streamOf } from '../../testUtils/mockApi';
import { AskDocsPageContent } from './AskDocsPage';

/** The current URL's search, to see what a reload would ask. */
function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

async function renderPage(url: string) {
  const api = mockAskDocsApi({
    askStream: jest.fn(() => streamOf(groundedResponse)),
    getIngestionProgress: jest.fn(() => new Promise(() => {})),
  });
  await renderInTestApp(
    <TestApiProvider apis={[[askDocsApiRef, api]]}>
      <Link to="/ask-docs?q=who%20owns%20payments">second link</Link>
      <Search />
      <AskDocsPageContent />
    </TestApiProvider>,
    { routeEntries: [url] },
  );
  return api;
}

describe('AskDocsPageContent', () => {
  it('asks the ?q= question of the route it is rendered at', async () => {
    const api = await renderPage('/ask-docs?q=roll%20back');
    await screen.findByTestId('ask-docs-state-grounded');
    expect(api.askStream).toHaveBeenCalledTimes(1);
    expect(api.askStream.mock.calls[0][0]).toEqual({ question: 'roll back' });
    expect(screen.getByTestId('ask-docs-question')).toHaveValue('roll back');
    // Gone from the URL once asked: a reload must not ask the model again.
    await waitFor(() =>
      expect(screen.getByTestId('search')).toBeEmptyDOMElement(),
    );
    expect(api.askStream).toHaveBeenCalledTimes(1);
  });

  it('asks again when a link brings another ?q=', async () => {
    const api = await renderPage('/ask-docs?q=roll%20back&tab=x');
    await screen.findByTestId('ask-docs-state-grounded');
    // Only q is removed.
    await waitFor(() =>
      expect(screen.getByTestId('search')).toHaveTextContent(/^\?tab=x$/),
    );

    await userEvent.click(screen.getByText('second link'));
    await waitFor(() => expect(api.askStream).toHaveBeenCalledTimes(2));
    // A new question from a link, not a follow-up in the thread shown before.
    expect(api.askStream.mock.calls[1][0]).toEqual({
      question: 'who owns payments',
    });
    expect(await screen.findByTestId('ask-docs-question')).toHaveValue(
      'who owns payments',
    );
    await waitFor(() =>
      expect(screen.getByTestId('search')).toBeEmptyDOMElement(),
    );
  });

  it('asks nothing without ?q=', async () => {
    const api = await renderPage('/ask-docs');
    await new Promise(r => setTimeout(r, 20));
    expect(api.askStream).not.toHaveBeenCalled();
  });
});
