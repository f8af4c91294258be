import { lazy } from 'react';
import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { createSearchResultListItemExtension } from '@backstage/plugin-search-react';
import {
  TechDocsAddonLocations,
  createTechDocsAddonExtension,
} from '@backstage/plugin-techdocs-react';
import { askDocsApiRef } from './api/AskDocsApi';
import { AskDocsClient } from './api/AskDocsClient';
import { rootRouteRef, techdocsReaderRouteRef } from './routes';
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
  // Bound to techdocs.docRoot by default (resolveRouteBindings), like the new system's.
  externalRoutes: { techdocsReader: techdocsReaderRouteRef },
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

/**
 * The panel scoped to the current entity, for the legacy entity page. It has no filter of its
 * own: wrap it in `<EntitySwitch.Case if={hasTechDocs}>` so it shows only where there are docs.
 */
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

/**
 * "Ask about these docs" for the legacy TechDocs reader: put it inside `<TechDocsAddons>`
 * of the docs route and the entity docs tab; questions are scoped to the entity being read.
 */
export const AskDocsTechDocsAddon = askDocsPlugin.provide(
  createTechDocsAddonExtension({
    name: 'AskDocsAddon',
    location: TechDocsAddonLocations.Subheader,
    component: lazy(() =>
      import('./components/TechDocsAskAddon').then(m => ({
        default: m.TechDocsAskAddon,
      })),
    ),
  }),
);
