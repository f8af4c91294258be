import Button from '@material-ui/core/Button';
import QuestionAnswerIcon from '@material-ui/icons/QuestionAnswer';
import { Link } from '@backstage/core-components';
import { DefaultResultListItem } from '@backstage/plugin-search-react';
import type { DefaultResultListItemProps } from '@backstage/plugin-search-react';

export interface AskDocsSearchResultListItemProps
  extends DefaultResultListItemProps {
  /** Path of the Ask the docs page. */
  askPath?: string;
}

/**
 * A search result with an "Ask the docs" action that opens the panel with the
 * result's title as the question.
 */
export function AskDocsSearchResultListItem(
  props: AskDocsSearchResultListItemProps,
) {
  const { askPath = '/ask-docs', ...rest } = props;
  const title = props.result?.title;
  return (
    <DefaultResultListItem
      icon={props.icon ?? <QuestionAnswerIcon />}
      secondaryAction={
        title ? (
          <Button
            size="small"
            component={Link}
            to={`${askPath}?q=${encodeURIComponent(title)}`}
            startIcon={<QuestionAnswerIcon fontSize="small" />}
          >
            Ask the docs
          </Button>
        ) : undefined
      }
      {...rest}
    />
  );
}
