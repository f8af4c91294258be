import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { createSearchResultListItemExtension } from '@backstage/plugin-search-react';
import { askDocsApiRef } from './api/AskDocsApi';
import { AskDocsClient } from './api/AskDocsClient';
import { rootRouteRef } from './routes';
import { ASK_DOCS_SEARCH_RESULT_TYPE } from './searchResultType';

/** The Ask the docs plugin for the legacy frontend system. */
export const askDocsPlugin = createPlugin({
  id: 'ask-docs',
  apis: [
    createApiFactory({
      api: askDocsApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new AskDocsClient({ discoveryApi, fetchApi }),
    }),
  ],
  routes: { root: rootRouteRef },
});

export const AskDocsPage = askDocsPlugin.provide(
  createRoutableExtension({
    name: 'AskDocsPage',
    component: () =>
      import('./components/AskDocsPage').then(m => m.AskDocsPage),
    mountPoint: rootRouteRef,
  }),
);

export const AskDocsCard = askDocsPlugin.provide(
  createComponentExtension({
    name: 'AskDocsCard',
    component: {
      lazy: () => import('./components/AskDocsCard').then(m => m.AskDocsCard),
    },
  }),
);

export const EntityAskDocsCard = askDocsPlugin.provide(
  createComponentExtension({
    name: 'EntityAskDocsCard',
    component: {
      lazy: () =>
        import('./components/EntityAskDocsCard').then(m => m.EntityAskDocsCard),
    },
  }),
);

export const AskDocsSearchAnswerCard = askDocsPlugin.provide(
  createComponentExtension({
    name: 'AskDocsSearchAnswerCard',
    component: {
      lazy: () =>
        import('./components/SearchAnswerCard').then(
          m => m.AskDocsSearchAnswerCard,
        ),
    },
  }),
);

export const AskDocsSearchResultListItem = askDocsPlugin.provide(
  createSearchResultListItemExtension({
    name: 'AskDocsSearchResultListItem',
    component: () =>
      import('./components/SearchResultListItem').then(
        m => m.AskDocsSearchResultListItem,
      ),
    predicate: result => result.type === ASK_DOCS_SEARCH_RESULT_TYPE,
  }),
);
