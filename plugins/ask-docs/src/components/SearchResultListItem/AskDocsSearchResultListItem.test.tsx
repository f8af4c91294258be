import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { rootRouteRef } from '../../routes';
import { groundedResponse } from '../../testUtils/fixtures';
import { mockAskDocsApi, streamOf } from '../../testUtils/mockApi';
import { AskDocsPageContent } from '../AskDocsPage';
import { AskDocsSearchResultListItem } from './AskDocsSearchResultListItem';

const result = {
  title: 'Rollback checklist',
  text: 'How to roll back a release',
  location: '/docs/default/component/payments/release/',
};

/** The action's anchor (MUI gives a Button rendered as a link the role "button"). */
function askLink() {
  return screen.queryByText('Ask the docs')?.closest('a') ?? null;
}

describe('AskDocsSearchResultListItem', () => {
  it('links to wherever the app mounted the Ask the docs page', async () => {
    await renderInTestApp(<AskDocsSearchResultListItem result={result} />, {
      mountedRoutes: { '/help/ask': rootRouteRef },
    });
    expect(askLink()).toHaveAttribute(
      'href',
      '/help/ask?q=Rollback%20checklist',
    );
  });

  it('asks the title on the page it opens: the user clicked the action', async () => {
    const api = mockAskDocsApi({
      askStream: jest.fn(() => streamOf(groundedResponse)),
      getIngestionProgress: jest.fn(() => new Promise(() => {})),
    });
    await renderInTestApp(
      <TestApiProvider apis={[[askDocsApiRef, api]]}>
        <AskDocsSearchResultListItem result={result} />
        <AskDocsPageContent />
      </TestApiProvider>,
      { mountedRoutes: { '/ask-docs': rootRouteRef } },
    );
    expect(api.askStream).not.toHaveBeenCalled();
    await userEvent.click(askLink()!);
    await waitFor(() => expect(api.askStream).toHaveBeenCalledTimes(1));
    expect(api.askStream.mock.calls[0][0]).toEqual({
      question: 'Rollback checklist',
    });
    expect(screen.getByTestId('ask-docs-question')).toHaveValue(
      'Rollback checklist',
    );
  });

  it('still links to an explicit askPath', async () => {
    await renderInTestApp(
      <AskDocsSearchResultListItem result={result} askPath="/questions" />,
      { mountedRoutes: { '/help/ask': rootRouteRef } },
    );
    expect(askLink()).toHaveAttribute(
      'href',
      '/questions?q=Rollback%20checklist',
    );
  });

  it('offers no link to a page the app does not mount', async () => {
    await renderInTestApp(<AskDocsSearchResultListItem result={result} />);
    expect(screen.getByText('Rollback checklist')).toBeInTheDocument();
    expect(askLink()).toBeNull();
  });

  it('keeps its icon when given icon={undefined} (as the new frontend system does)', async () => {
    const { container } = await renderInTestApp(
      <AskDocsSearchResultListItem result={result} icon={undefined} />,
      { mountedRoutes: { '/ask-docs': rootRouteRef } },
    );
    expect(container.querySelector('.MuiListItemIcon-root svg')).not.toBeNull();
  });
});
