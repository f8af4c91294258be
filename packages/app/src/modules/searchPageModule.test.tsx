import { screen, waitFor } from '@testing-library/react';
import { renderTestApp } from '@backstage/frontend-test-utils';
import searchPlugin from '@backstage/plugin-search/alpha';
import { MockSearchApi, searchApiRef } from '@backstage/plugin-search-react';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import askDocsPlugin from '@askdocs/plugin-ask-docs/alpha';
import { askDocsApiRef } from '@askdocs/plugin-ask-docs';
import { searchPageWithAnswersModule } from './searchPageModule';

const grounded = {
  id: 'a-1',
  status: 'answered' as const,
  grounded: true,
  answer: 'Roll back with deployctl.',
  sources: [],
  evidence: [],
  embeddingModel: 'e',
  createdAt: '2026-12-03T00:00:00Z',
};

describe('searchPageWithAnswersModule', () => {
  it('asks once per term: the plugin answer for the stock filter column is left out', async () => {
    const url = '/search?query=how%20to%20roll%20back';
    // The page reads the term from the address bar.
    window.history.replaceState(null, '', url);
    const askStream = jest.fn(async function* stream(_request: unknown) {
      yield { type: 'done' as const, response: grounded };
    });
    renderTestApp({
      features: [searchPlugin, askDocsPlugin, searchPageWithAnswersModule],
      apis: [
        [askDocsApiRef, { askStream, listAnswers: jest.fn(async () => []) }],
        [
          catalogApiRef,
          {
            getEntities: jest.fn(async () => ({ items: [] })),
            getEntityFacets: jest.fn(async () => ({ facets: {} })),
          },
        ],
        [searchApiRef, new MockSearchApi({ results: [] })],
      ],
      initialRouteEntries: [url],
      // No catalog or TechDocs plugin here to host the entity card and the docs addon.
      isExpectedError: error => error.code === 'EXTENSION_ATTACHMENT_MISSING',
    });
    await waitFor(
      () => expect(screen.getByTestId('ask-docs-state-grounded')).toBeTruthy(),
      { timeout: 5000 },
    );
    // Longer than the answer card's debounce: a second card would have asked by now.
    await new Promise(resolve => setTimeout(resolve, 1200));
    expect(screen.getAllByTestId('ask-docs-search-answer')).toHaveLength(1);
    expect(askStream).toHaveBeenCalledTimes(1);
  });
});
