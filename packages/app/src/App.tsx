import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import techdocsPlugin from '@backstage/plugin-techdocs/alpha';
import searchPlugin from '@backstage/plugin-search/alpha';
import askDocsPlugin from '@askdocs/plugin-ask-docs/alpha';
import { homePageModule } from './modules/homePageModule';
import { searchPageWithAnswersModule } from './modules/searchPageModule';

/**
 * Features are listed explicitly rather than discovered (`app.packages`), so the set
 * is visible here and identical in every environment. The app plugin (added by
 * createApp) brings the default sign-in page, which offers the guest provider.
 */
export const features = [
  catalogPlugin,
  techdocsPlugin,
  searchPlugin,
  askDocsPlugin,
  searchPageWithAnswersModule,
  homePageModule,
];

export const app = createApp({ features });
