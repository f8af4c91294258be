import { screen } from '@testing-library/react';
import {
  renderInTestApp,
  TestApiProvider,
} from '@backstage/frontend-test-utils';
import { MockSearchApi, searchApiRef } from '@backstage/plugin-search-react';
import { askDocsApiRef } from '@askdocs/plugin-ask-docs';
import type { AskDocsApi } from '@askdocs/plugin-ask-docs';
import { SearchPageWithAnswers } from './SearchPageWithAnswers';

const grounded = {
  id: 'a-1',
  status: 'answered' as const,
  grounded: true,
  answer: 'Roll back with deployctl [Release process].',
  sources: [
    {
      title: 'Release process',
      documentId: 'd',
      chunkId: 'c',
      entityRef: 'component:default/payments-service',
      sectionPath: 'Release process › Rollback',
      anchor: 'rollback',
      url: '/docs/default/component/payments-service/release-process/#rollback',
      snippet: 'Run deployctl rollback.',
      revision: 'r1',
    },
  ],
  evidence: [],
  embeddingModel: 'e',
  createdAt: '2026-12-03T00:00:00Z',
};

describe('SearchPageWithAnswers', () => {
  it('shows the answer for the term above the search results', async () => {
    window.history.replaceState(
      null,
      '',
      '/search?query=how%20to%20roll%20back',
    );
    const askStream = jest.fn(async function* stream(_request: unknown) {
      yield { type: 'done' as const, response: grounded };
    });
    const askDocsApi = { askStream, listAnswers: jest.fn(async () => []) };
    const searchApi = new MockSearchApi({
      results: [
        {
          type: 'techdocs',
          document: {
            title: 'Release process result',
            text: 'Releases leave main on Tuesdays.',
            location:
              '/docs/default/component/payments-service/release-process/',
          },
        },
      ],
    });
    renderInTestApp(
      <TestApiProvider
        apis={[
          [askDocsApiRef, askDocsApi as unknown as AskDocsApi],
          [searchApiRef, searchApi],
        ]}
      >
        <SearchPageWithAnswers items={[]} resultTypes={[]} searchFilters={[]} />
      </TestApiProvider>,
    );

    const answer = await screen.findByTestId(
      'ask-docs-state-grounded',
      undefined,
      {
        timeout: 5000,
      },
    );
    const result = await screen.findByText('Release process result');
    expect(askStream.mock.calls[0][0]).toEqual({
      question: 'how to roll back',
    });
    // The answer card precedes the results in document order.
    expect(
      answer.compareDocumentPosition(result) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });
});
