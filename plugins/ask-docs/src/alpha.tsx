/**
 * Ask the docs for the new frontend system.
 *
 * @packageDocumentation
 */
import { ComponentType, Suspense, lazy } from 'react';
import { z } from 'zod/v4';
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
import {
  SearchFilterBlueprint,
  SearchResultListItemBlueprint,
} from '@backstage/plugin-search-react/alpha';
// The alpha entry point declares TechDocsAddonLocations but exports it only as a type.
import { TechDocsAddonLocations } from '@backstage/plugin-techdocs-react';
import { AddonBlueprint } from '@backstage/plugin-techdocs-react/alpha';
import { askDocsApiRef } from './api/AskDocsApi';
import { AskDocsClient } from './api/AskDocsClient';
import { rootRouteRef, techdocsReaderRouteRef } from './routes';
import { ASK_DOCS_SEARCH_RESULT_TYPE } from './searchResultType';
import { hasTechDocs } from './components/entityScope';
import { askDocsTranslationRef } from './translation';

export { askDocsTranslationRef };

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
    title: askDocsTranslationRef('page.title'),
    icon: <QuestionAnswerIcon fontSize="inherit" />,
    routeRef: askDocsRouteRef,
    loader: () =>
      import('./components/AskDocsPage').then(m => <m.AskDocsPageContent />),
  },
});

/**
 * "Ask about this component's docs" on the overview pages of entities with TechDocs (an app can
 * set another `filter` in its config).
 */
export const askDocsEntityCard = EntityCardBlueprint.make({
  name: 'ask',
  params: {
    type: 'content',
    filter: hasTechDocs,
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

/** A component whose code is loaded on first render, keeping it out of the app's main bundle. */
function lazyComponent<P extends {}>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Lazy = lazy(() => load().then(component => ({ default: component })));
  const Loader = (props: P) => (
    <Suspense fallback={null}>
      <Lazy {...(props as any)} />
    </Suspense>
  );
  return Loader;
}

/**
 * "Ask about these docs" in the TechDocs reader (standalone and entity docs tab), scoped
 * to the entity being read. The subheader is the one addon location outside the docs'
 * shadow DOM that spans the content width, so the answer has room and app styles apply.
 */
export const askDocsTechDocsAddon = AddonBlueprint.make({
  name: 'ask',
  params: {
    name: 'AskDocsAddon',
    location: TechDocsAddonLocations.Subheader,
    component: lazyComponent(() =>
      import('./components/TechDocsAskAddon').then(m => m.TechDocsAskAddon),
    ),
  },
});

const SearchAnswerCard = lazyComponent(() =>
  import('./components/SearchAnswerCard').then(m => m.AskDocsSearchAnswerCard),
);

/**
 * An answer for the current term on the stock search page. The page has no slot above the
 * results; its search-filter input is the only one that renders an arbitrary component
 * inside the search context, so the answer sits in the filter column (hidden on mobile).
 * A button asks; `autoAsk: true` in the extension's config asks about every term.
 */
export const askDocsSearchAnswer = SearchFilterBlueprint.makeWithOverrides({
  name: 'answer',
  configSchema: {
    autoAsk: z.boolean().default(false),
  },
  factory(originalFactory, { config }) {
    return originalFactory({
      component: ({ className }) => (
        <SearchAnswerCard
          embedded
          autoAsk={config.autoAsk}
          className={className}
        />
      ),
    });
  },
});

export default createFrontendPlugin({
  pluginId: 'ask-docs',
  title: 'Ask the docs',
  icon: <QuestionAnswerIcon fontSize="inherit" />,
  routes: { root: askDocsRouteRef },
  // Bound to techdocs.docRoot by default, so citations open the reader wherever it is mounted.
  externalRoutes: {
    techdocsReader: convertLegacyRouteRef(techdocsReaderRouteRef),
  },
  extensions: [
    askDocsApi,
    askDocsPage,
    askDocsEntityCard,
    askDocsSearchResultListItem,
    askDocsSearchAnswer,
    askDocsTechDocsAddon,
  ],
});
