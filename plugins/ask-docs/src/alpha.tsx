/**
 * Ask the docs for the new frontend system.
 *
 * @packageDocumentation
 */
import QuestionAnswerIcon from '@material-ui/icons/QuestionAnswer';
import {
  ApiBlueprint,
  PageBlueprint,
  createFrontendPlugin,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { convertLegacyRouteRef } from '@backstage/core-compat-api';
import { EntityCardBlueprint } from '@backstage/plugin-catalog-react/alpha';
import type { SearchResultItemExtensionComponent } from '@backstage/plugin-search-react/alpha';
import { SearchResultListItemBlueprint } from '@backstage/plugin-search-react/alpha';
import { askDocsApiRef } from './api/AskDocsApi';
import { AskDocsClient } from './api/AskDocsClient';
import { rootRouteRef } from './routes';
import { ASK_DOCS_SEARCH_RESULT_TYPE } from './searchResultType';

const askDocsRouteRef = convertLegacyRouteRef(rootRouteRef);

/** The AskDocsApi backed by the ask-docs backend. */
export const askDocsApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: askDocsApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new AskDocsClient({ discoveryApi, fetchApi }),
    }),
});

/** The /ask-docs page; its title and icon also make it the nav item. */
export const askDocsPage = PageBlueprint.make({
  params: {
    path: '/ask-docs',
    title: 'Ask the docs',
    icon: <QuestionAnswerIcon fontSize="inherit" />,
    routeRef: askDocsRouteRef,
    loader: () =>
      import('./components/AskDocsPage').then(m => <m.AskDocsPageContent />),
  },
});

/** "Ask about this component's docs" on entity overview pages. */
export const askDocsEntityCard = EntityCardBlueprint.make({
  name: 'ask',
  params: {
    type: 'content',
    loader: () =>
      import('./components/EntityAskDocsCard').then(m => (
        <m.EntityAskDocsCard />
      )),
  },
});

/** Renders search results of type 'ask-docs' with an "Ask the docs" action. */
export const askDocsSearchResultListItem = SearchResultListItemBlueprint.make({
  params: {
    predicate: result => result.type === ASK_DOCS_SEARCH_RESULT_TYPE,
    component: () =>
      import('./components/SearchResultListItem').then(
        m =>
          m.AskDocsSearchResultListItem as unknown as SearchResultItemExtensionComponent,
      ),
  },
});

export default createFrontendPlugin({
  pluginId: 'ask-docs',
  title: 'Ask the docs',
  icon: <QuestionAnswerIcon fontSize="inherit" />,
  routes: { root: askDocsRouteRef },
  extensions: [
    askDocsApi,
    askDocsPage,
    askDocsEntityCard,
    askDocsSearchResultListItem,
  ],
});
