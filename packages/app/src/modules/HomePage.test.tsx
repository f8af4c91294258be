import { screen } from '@testing-library/react';
import { renderTestApp } from '@backstage/frontend-test-utils';
import { homePageModule } from './homePageModule';

const OPEN_LINK = /^Open /;

describe('home page', () => {
  it('is mounted at / and leads to Ask the docs, the catalog and the docs', async () => {
    renderTestApp({ features: [homePageModule], initialRouteEntries: ['/'] });

    // The page loads lazily, as in the portal.
    const links = await screen.findAllByRole(
      'link',
      { name: OPEN_LINK },
      { timeout: 15_000 },
    );
    const targets = links.map(l => [l.textContent, l.getAttribute('href')]);
    expect(targets).toEqual([
      ['Open Ask the docs', '/ask-docs'],
      ['Open Software catalog', '/catalog'],
      ['Open Documentation', '/docs'],
    ]);
  });

  it('does not take over other paths', async () => {
    renderTestApp({
      features: [homePageModule],
      initialRouteEntries: ['/somewhere-else'],
    });
    // Longer than the lazy load above takes, so a match would have rendered by now.
    await new Promise(resolve => setTimeout(resolve, 5_000));
    expect(screen.queryAllByRole('link', { name: OPEN_LINK })).toEqual([]);
  });
});
