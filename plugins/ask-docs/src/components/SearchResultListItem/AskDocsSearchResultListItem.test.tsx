import { screen } from '@testing-library/react';
import { renderInTestApp } from '@backstage/test-utils';
import { rootRouteRef } from '../../routes';
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
