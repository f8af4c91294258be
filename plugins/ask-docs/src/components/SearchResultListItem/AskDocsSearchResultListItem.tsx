import Button from '@material-ui/core/Button';
import QuestionAnswerIcon from '@material-ui/icons/QuestionAnswer';
import { Link } from '@backstage/core-components';
import { useRouteRef } from '@backstage/core-plugin-api';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { DefaultResultListItem } from '@backstage/plugin-search-react';
import type { DefaultResultListItemProps } from '@backstage/plugin-search-react';
import { rootRouteRef } from '../../routes';
import { askDocsTranslationRef } from '../../translation';
import { ASK_ON_ARRIVAL } from '../askLink';

export interface AskDocsSearchResultListItemProps
  extends DefaultResultListItemProps {
  /** Path of the Ask the docs page; by default, wherever the app mounts it. */
  askPath?: string;
}

/** The path the app mounts the Ask the docs page at; undefined where it is not mounted. */
function useAskPagePath(): string | undefined {
  try {
    // Throws for an unmounted page (e.g. `page:ask-docs: false`): then no link to a 404.
    return useRouteRef(rootRouteRef)();
  } catch {
    return undefined;
  }
}

/**
 * A search result with an "Ask the docs" action that opens the panel and asks the result's
 * title. The link's router state (ASK_ON_ARRIVAL) makes the page ask: the user clicked here,
 * whereas the same `?q=` URL opened from elsewhere only fills the question box.
 */
export function AskDocsSearchResultListItem(
  props: AskDocsSearchResultListItemProps,
) {
  const { askPath, ...rest } = props;
  const { t } = useTranslationRef(askDocsTranslationRef);
  const pagePath = useAskPagePath();
  const path = askPath ?? pagePath;
  const title = props.result?.title;
  return (
    <DefaultResultListItem
      {...rest}
      // After the spread: the new frontend system passes `icon: undefined` explicitly.
      icon={rest.icon ?? <QuestionAnswerIcon />}
      secondaryAction={
        rest.secondaryAction ??
        (title && path ? (
          <Button
            size="small"
            component={Link}
            to={`${path}?q=${encodeURIComponent(title)}`}
            state={ASK_ON_ARRIVAL}
            startIcon={<QuestionAnswerIcon fontSize="small" />}
          >
            {t('searchResult.ask')}
          </Button>
        ) : undefined)
      }
    />
  );
}
