import { createElement, useEffect, useRef } from 'react';
import Grid from '@material-ui/core/Grid';
import Paper from '@material-ui/core/Paper';
import { makeStyles } from '@material-ui/core/styles';
import { CatalogIcon, Content } from '@backstage/core-components';
import { SearchType } from '@backstage/plugin-search';
import {
  DefaultResultListItem,
  SearchBar,
  SearchContextProvider,
  SearchPagination,
  SearchResult,
  SearchResultPager,
  useSearch,
} from '@backstage/plugin-search-react';
import type {
  SearchFilterExtensionComponent,
  SearchResultItemExtensionComponent,
  SearchResultItemExtensionPredicate,
} from '@backstage/plugin-search-react/alpha';
import { AskDocsSearchAnswerCard } from '@askdocs/plugin-ask-docs';

export interface SearchPageWithAnswersProps {
  noTrack?: boolean;
  items: Array<{
    predicate?: SearchResultItemExtensionPredicate;
    component: SearchResultItemExtensionComponent;
  }>;
  resultTypes: Array<{ value: string; name: string; icon: JSX.Element }>;
  searchFilters: SearchFilterExtensionComponent[];
}

const useStyles = makeStyles(theme => ({
  filters: { padding: theme.spacing(2), marginTop: theme.spacing(2) },
  filter: { '& + &': { marginTop: theme.spacing(2.5) } },
}));

/** Keeps `?query=` and `?types[]=` in the address bar, so searches can be shared. */
function SearchUrlSync() {
  const { term, setTerm, types, setTypes } = useSearch();
  const initialised = useRef(false);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const query = params.get('query');
    if (query) setTerm(query);
    const urlTypes = params.getAll('types[]');
    if (urlTypes.length > 0) setTypes(urlTypes);
    initialised.current = true;
  }, [setTerm, setTypes]);

  useEffect(() => {
    if (!initialised.current) return;
    const params = new URLSearchParams();
    if (term) params.set('query', term);
    for (const type of types) params.append('types[]', type);
    const search = params.toString();
    window.history.replaceState(
      window.history.state,
      document.title,
      `${window.location.pathname}${search ? `?${search}` : ''}`,
    );
  }, [term, types]);

  return null;
}

function SearchPageContent(props: SearchPageWithAnswersProps) {
  const classes = useStyles();
  const componentFor = (
    result: Parameters<SearchResultItemExtensionPredicate>[0],
  ) =>
    props.items.find(item => item.predicate?.(result))?.component ??
    DefaultResultListItem;

  return (
    <Content>
      <Grid container direction="row">
        <Grid item xs={12}>
          <SearchBar debounceTime={100} />
        </Grid>
        <Grid item xs={12} md={3}>
          <SearchType.Accordion
            name="Result Type"
            showCounts
            types={[
              {
                value: 'software-catalog',
                name: 'Software Catalog',
                icon: <CatalogIcon />,
              },
              ...props.resultTypes,
            ]}
          />
          {props.searchFilters.length > 0 && (
            <Paper className={classes.filters}>
              {props.searchFilters.map((Filter, index) => (
                <Filter key={index} className={classes.filter} />
              ))}
            </Paper>
          )}
        </Grid>
        <Grid item xs>
          {/* This portal answers every term above the results (a model call per term). */}
          <AskDocsSearchAnswerCard autoAsk />
          <SearchPagination />
          <SearchResult>
            {({ results }) => (
              <>
                {results.map((result, index) => {
                  const { document, ...rest } = result;
                  return createElement(componentFor(result) as any, {
                    ...rest,
                    key: index,
                    result: document,
                    noTrack: props.noTrack,
                  });
                })}
              </>
            )}
          </SearchResult>
          <SearchResultPager />
        </Grid>
      </Grid>
    </Content>
  );
}

/** The search page with an Ask the docs answer above the results. */
export function SearchPageWithAnswers(props: SearchPageWithAnswersProps) {
  return (
    <SearchContextProvider>
      <SearchUrlSync />
      <SearchPageContent {...props} />
    </SearchContextProvider>
  );
}
