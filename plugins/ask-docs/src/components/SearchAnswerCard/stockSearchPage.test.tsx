import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderTestApp } from '@backstage/frontend-test-utils';
import searchPlugin from '@backstage/plugin-search/alpha';
import { MockSearchApi, searchApiRef } from '@backstage/plugin-search-react';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import askDocsPlugin from '../../alpha';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { groundedResponse } from '../../testUtils/fixtures';
import { mockAskDocsApi, streamOf } from '../../testUtils/mockApi';

const catalogApi = {
  getEntities: jest.fn(async () => ({ items: [] })),
  getEntityFacets: jest.fn(async () => ({ facets: { kind: [] } })),
};

/** The stock search plugin's /search page with only the ask-docs plugin added. */
function renderStockSearchPage(
  url: string,
  options: {
    results?: NonNullable<
      ConstructorParameters<typeof MockSearchApi>[0]
    >['results'];
    config?: NonNullable<Parameters<typeof renderTestApp>[0]>['config'];
  } = {},
) {
  const api = mockAskDocsApi({
    askStream: jest.fn(() => streamOf(groundedResponse)),
  });
  renderTestApp({
    features: [searchPlugin, askDocsPlugin],
    apis: [
      [askDocsApiRef, api],
      [catalogApiRef, catalogApi],
      [
        searchApiRef,
        new MockSearchApi({
          results: options.results ?? [
            {
              type: 'techdocs',
              document: {
                title: 'Rollback checklist',
                text: 'How to roll back',
                location: '/docs/default/component/payments/release/',
              },
            },
          ],
        }),
      ],
    ],
    initialRouteEntries: [url],
    config: options.config,
    // The entity card and the TechDocs addon have no host here (no catalog or TechDocs plugin).
    isExpectedError: error => error.code === 'EXTENSION_ATTACHMENT_MISSING',
  });
  return api;
}

/** Waits for the grounded answer inside the card. */
const groundedIn = (card: HTMLElement) =>
  waitFor(
    () =>
      expect(
        card.querySelector('[data-testid="ask-docs-state-grounded"]'),
      ).not.toBeNull(),
    { timeout: 10_000 },
  );

describe('the stock search page with the ask-docs plugin installed', () => {
  it('offers an answer for the search term beside the results, asked with a click', async () => {
    const api = renderStockSearchPage('/search?query=how%20to%20roll%20back');
    // The stock results are rendered (the page has settled its term from the URL) ...
    expect(
      await screen.findByText('Rollback checklist', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
    // ... and beside them a button that asks; nothing is asked before it is clicked.
    const button = await screen.findByTestId('ask-docs-search-ask');
    expect(button).toHaveTextContent('how to roll back');
    expect(api.askStream).not.toHaveBeenCalled();
    fireEvent.click(button);
    const answer = screen.getByTestId('ask-docs-search-answer');
    await groundedIn(answer);
    expect(api.askStream).toHaveBeenCalledTimes(1);
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'how to roll back',
    });
    expect(screen.getByText('Rollback checklist')).toBeInTheDocument();
  }, 40_000);

  it('with autoAsk in its config, answers the term without a click', async () => {
    const api = renderStockSearchPage('/search?query=how%20to%20roll%20back', {
      config: {
        app: {
          extensions: [
            { 'search-filter:ask-docs/answer': { config: { autoAsk: true } } },
          ],
        },
      },
    });
    const answer = await screen.findByTestId(
      'ask-docs-search-answer',
      {},
      { timeout: 15_000 },
    );
    await groundedIn(answer);
    expect(screen.queryByTestId('ask-docs-search-ask')).toBeNull();
    expect(api.askStream).toHaveBeenCalledTimes(1);
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'how to roll back',
    });
  }, 40_000);

  it('asks nothing while there is no search term', async () => {
    const api = renderStockSearchPage('/search');
    expect(
      await screen.findByText('Result Type', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
    await new Promise(resolve => setTimeout(resolve, 1000));
    expect(api.askStream).not.toHaveBeenCalled();
    expect(screen.queryByTestId('ask-docs-search-answer')).toBeNull();
  }, 40_000);

  it('renders ask-docs results with their icon and a link to the page, which asks', async () => {
    const api = renderStockSearchPage('/search?query=rollback', {
      results: [
        {
          type: 'ask-docs',
          document: {
            title: 'Rollback checklist',
            text: 'How to roll back',
            location: '/docs/default/component/payments/release/',
          },
        },
      ],
      config: {
        app: {
          extensions: [{ 'page:ask-docs': { config: { path: '/help/ask' } } }],
        },
      },
    });
    const title = await screen.findByText(
      'Rollback checklist',
      {},
      { timeout: 15_000 },
    );
    // Not the sidebar item, which has the same text.
    const item = title.closest('li')!;
    const link = within(item).getByText('Ask the docs').closest('a')!;
    expect(link).toHaveAttribute('href', '/help/ask?q=Rollback%20checklist');
    expect(item.querySelector('.MuiListItemIcon-root svg')).not.toBeNull();

    // The click is the user's: the page it opens asks (a pasted URL would only fill the box).
    expect(api.askStream).not.toHaveBeenCalled();
    fireEvent.click(link);
    await waitFor(() => expect(api.askStream).toHaveBeenCalledTimes(1), {
      timeout: 15_000,
    });
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'Rollback checklist',
    });
  }, 40_000);
});
