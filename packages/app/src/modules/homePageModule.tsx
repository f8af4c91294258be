import {
  createFrontendModule,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';

/**
 * The portal's `/`: without a page at the root path the app shows its 404 there. A page of
 * the app plugin rather than the home plugin, which would add a dependency for three links.
 */
export const homePage = PageBlueprint.make({
  name: 'home',
  params: {
    path: '/',
    title: 'Home',
    loader: () => import('./HomePage').then(m => <m.HomePage />),
  },
});

export const homePageModule = createFrontendModule({
  pluginId: 'app',
  extensions: [homePage],
});
