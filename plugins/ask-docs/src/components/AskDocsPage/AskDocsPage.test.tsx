import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, useLocation } from 'react-router-dom';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { groundedResponse } from '../../testUtils/fixtures';
import { mockAskDocsApi, streamOf } from '../../testUtils/mockApi';
import { ASK_ON_ARRIVAL } from '../askLink';
import { AskDocsPageContent } from './AskDocsPage';

/** The current URL's search and router state, to see what a reload would ask. */
function Where() {
  const location = useLocation();
  return (
    <>
      <output data-testid="search">{location.search}</output>
      <output data-testid="state">{JSON.stringify(location.state)}</output>
    </>
  );
}

async function renderPage(url: string) {
  const api = mockAskDocsApi({
    askStream: jest.fn(() => streamOf(groundedResponse)),
    getIngestionProgress: jest.fn(() => new Promise(() => {})),
  });
  await renderInTestApp(
    <TestApiProvider apis={[[askDocsApiRef, api]]}>
      {/* As the plugin's search result action links: with its router state. */}
      <Link to="/ask-docs?q=roll%20back" state={ASK_ON_ARRIVAL}>
        ask link
      </Link>
      <Link to="/ask-docs?q=who%20owns%20payments" state={ASK_ON_ARRIVAL}>
        second ask link
      </Link>
      {/* Any other link, as a URL from outside the app: no state. */}
      <Link to="/ask-docs?q=delete%20everything">plain link</Link>
      <Where />
      <AskDocsPageContent />
    </TestApiProvider>,
    { routeEntries: [url] },
  );
  return api;
}

const question = () => screen.getByTestId('ask-docs-question');
const pause = () => new Promise(r => setTimeout(r, 20));

describe('AskDocsPageContent', () => {
  it('fills the question box from a ?q= URL but asks only on a click', async () => {
    const api = await renderPage('/ask-docs?q=roll%20back');
    expect(question()).toHaveValue('roll back');
    await pause();
    expect(api.askStream).not.toHaveBeenCalled();
    expect(screen.queryByTestId('ask-docs-streaming')).toBeNull();
    // q is removed as on an asking link: a reload keeps the box empty rather than stale.
    await waitFor(() =>
      expect(screen.getByTestId('search')).toBeEmptyDOMElement(),
    );

    await userEvent.click(screen.getByTestId('ask-docs-submit'));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(api.askStream).toHaveBeenCalledTimes(1);
    expect(api.askStream.mock.calls[0][0]).toEqual({ question: 'roll back' });
  });

  it("asks the ?q= question when the plugin's own link brings it", async () => {
    const api = await renderPage('/ask-docs?tab=x');
    await userEvent.click(screen.getByText('ask link'));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(api.askStream).toHaveBeenCalledTimes(1);
    expect(api.askStream.mock.calls[0][0]).toEqual({ question: 'roll back' });
    expect(question()).toHaveValue('roll back');
    // Gone from the URL and the router state once asked: a reload or Back must not ask again.
    await waitFor(() =>
      expect(screen.getByTestId('search')).toBeEmptyDOMElement(),
    );
    expect(screen.getByTestId('state')).toHaveTextContent('null');
    await pause();
    expect(api.askStream).toHaveBeenCalledTimes(1);
  });

  it('asks again when another of its links brings another ?q=', async () => {
    const api = await renderPage('/ask-docs');
    await userEvent.click(screen.getByText('ask link'));
    await screen.findByTestId('ask-docs-state-grounded');

    await userEvent.click(screen.getByText('second ask link'));
    await waitFor(() => expect(api.askStream).toHaveBeenCalledTimes(2));
    // A new question from a link, not a follow-up in the thread shown before.
    expect(api.askStream.mock.calls[1][0]).toEqual({
      question: 'who owns payments',
    });
    expect(await screen.findByTestId('ask-docs-question')).toHaveValue(
      'who owns payments',
    );
  });

  it('only fills the box when a link without the state brings a ?q=', async () => {
    const api = await renderPage('/ask-docs');
    await userEvent.click(screen.getByText('ask link'));
    await screen.findByTestId('ask-docs-state-grounded');

    await userEvent.click(screen.getByText('plain link'));
    await waitFor(() => expect(question()).toHaveValue('delete everything'));
    await pause();
    expect(api.askStream).toHaveBeenCalledTimes(1);
    // A fresh panel: the earlier answer is not shown under the new question.
    expect(screen.queryByTestId('ask-docs-state-grounded')).toBeNull();
  });

  it('asks nothing without ?q=', async () => {
    const api = await renderPage('/ask-docs');
    await pause();
    expect(api.askStream).not.toHaveBeenCalled();
    expect(question()).toHaveValue('');
  });

  it('heads Sources and the history one level below the page title', async () => {
    const api = await renderPage('/ask-docs');
    await userEvent.click(screen.getByText('ask link'));
    await screen.findByTestId('ask-docs-state-grounded');
    expect(api.askStream).toHaveBeenCalledTimes(1);
    expect(
      screen.getByRole('heading', { level: 2, name: 'Sources' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', {
        level: 2,
        name: 'Your previous questions',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 3 })).toBeNull();
  });
});
