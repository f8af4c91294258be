import { screen, waitFor } from '@testing-library/react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import {
  MockSearchApi,
  SearchContextProvider,
  searchApiRef,
} from '@backstage/plugin-search-react';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { groundedResponse } from '../../testUtils/fixtures';
import { mockAskDocsApi, streamOf } from '../../testUtils/mockApi';
import { AskDocsSearchAnswerCard } from './AskDocsSearchAnswerCard';

async function renderWithTerm(
  term: string,
  api = mockAskDocsApi({
    askStream: jest.fn(() => streamOf(groundedResponse)),
  }),
) {
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [askDocsApiRef, api],
        [searchApiRef, new MockSearchApi({ results: [] })],
      ]}
    >
      <SearchContextProvider initialState={{ term, types: [], filters: {} }}>
        <AskDocsSearchAnswerCard debounceMs={0} />
      </SearchContextProvider>
    </TestApiProvider>,
  );
  return api;
}

describe('AskDocsSearchAnswerCard', () => {
  it('answers the current search term', async () => {
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

  it('does not ask about a term that is too short', async () => {
    const api = await renderWithTerm('ab');
    await new Promise(r => setTimeout(r, 20));
    await waitFor(() => expect(api.askStream).not.toHaveBeenCalled());
    expect(screen.queryByTestId('ask-docs-search-answer')).toBeNull();
  });
});
