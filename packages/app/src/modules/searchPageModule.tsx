import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { searchPage } from '@backstage/plugin-search/alpha';
import {
  SearchFilterBlueprint,
  SearchFilterResultTypeBlueprint,
  SearchResultListItemBlueprint,
} from '@backstage/plugin-search-react/alpha';

/**
 * The plugin's answer for the stock page, which sits in the filter column. This layout
 * shows the answer above the results instead, so that one is left out (or every term
 * would be asked twice).
 */
const FILTER_COLUMN_ANSWER = 'search-filter:ask-docs/answer';

/**
 * The search page has no input for content above the results, so this replaces its
 * element with our own layout (search bar, an Ask the docs answer for the term, then
 * the results) while keeping the page's path, route ref and every extension input:
 * result list items, result types and filters contributed by other plugins still apply.
 */
const searchPageWithAnswers = searchPage.override({
  factory(originalFactory, { inputs, config }) {
    return originalFactory({
      params: {
        loader: async () => {
          const { SearchPageWithAnswers } = await import(
            './SearchPageWithAnswers'
          );
          return (
            <SearchPageWithAnswers
              noTrack={config.noTrack}
              items={inputs.items.map(item =>
                item.get(SearchResultListItemBlueprint.dataRefs.item),
              )}
              resultTypes={inputs.resultTypes.map(item =>
                item.get(SearchFilterResultTypeBlueprint.dataRefs.resultType),
              )}
              searchFilters={inputs.searchFilters
                .filter(item => item.node.spec.id !== FILTER_COLUMN_ANSWER)
                .map(
                  item =>
                    item.get(SearchFilterBlueprint.dataRefs.searchFilters)
                      .component,
                )}
            />
          );
        },
      },
    });
  },
});

export const searchPageWithAnswersModule = createFrontendModule({
  pluginId: 'search',
  extensions: [searchPageWithAnswers],
});
