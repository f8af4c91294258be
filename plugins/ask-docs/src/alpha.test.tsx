import { screen } from '@testing-library/react';
import { renderTestApp } from '@backstage/frontend-test-utils';
import { askDocsApiRef } from './api/AskDocsApi';
import { mockAskDocsApi } from './testUtils/mockApi';
import askDocsPlugin from './alpha';

describe('ask-docs frontend plugin (new frontend system)', () => {
  it('serves the panel, the history and the ingestion panel at /ask-docs', async () => {
    const api = mockAskDocsApi({
      listAnswers: jest.fn(async () => []),
      getIngestionProgress: jest.fn(async () => {
        throw new Error('database unavailable');
      }),
    });
    renderTestApp({
      features: [askDocsPlugin],
      apis: [[askDocsApiRef, api]],
      initialRouteEntries: ['/ask-docs'],
    });
    expect(await screen.findByTestId('ask-docs-question')).toBeInTheDocument();
    expect(await screen.findByTestId('ask-docs-history')).toBeInTheDocument();
    expect(await screen.findByText('database unavailable')).toBeInTheDocument();
    expect(api.listAnswers).toHaveBeenCalledWith({ limit: 20 });
  });
});
