import { useEffect, useRef, useState } from 'react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Paper from '@material-ui/core/Paper';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { useSearch } from '@backstage/plugin-search-react';
import { AskStateView } from '../AskDocsPanel';
import { useAskDocs } from '../../hooks/useAskDocs';
import { askDocsTranslationRef } from '../../translation';

const useStyles = makeStyles(theme => ({
  root: { padding: theme.spacing(2), marginBottom: theme.spacing(2) },
}));

export interface AskDocsSearchAnswerCardProps {
  /**
   * Ask about every term once the user stops typing. Off by default: each ask is a model call
   * that counts against the user's quota and lands in their history, so the card offers a
   * button for the term instead.
   */
  autoAsk?: boolean;
  /** With `autoAsk`: quiet time after the last keystroke before asking. */
  debounceMs?: number;
  /** Shorter terms are not asked about (single letters rarely make a question). */
  minLength?: number;
  /**
   * Renders without its own card (no Paper), for slots that already sit in one, such as
   * the filter column of the stock search page.
   */
  embedded?: boolean;
  className?: string;
}

/**
 * An answer for the current search term, meant to sit above the search results.
 * Reads the term from the surrounding SearchContextProvider.
 */
export function AskDocsSearchAnswerCard(props: AskDocsSearchAnswerCardProps) {
  const { autoAsk = false, debounceMs = 800, minLength = 3 } = props;
  const classes = useStyles();
  const { t } = useTranslationRef(askDocsTranslationRef);
  const { term } = useSearch();
  const { state, ask, reset } = useAskDocs();
  const question = term.trim();
  // The clicked button (Ask, or Retry) is replaced by the answer's progress, so focus moves to
  // the answer's title once it is shown, rather than falling back to the page.
  const title = useRef<HTMLHeadingElement>(null);
  const [focusTitle, setFocusTitle] = useState(false);
  const askByClick = () => {
    setFocusTitle(true);
    ask(question);
  };
  useEffect(() => {
    if (!focusTitle || state.phase === 'idle') return;
    title.current?.focus();
    setFocusTitle(false);
  }, [focusTitle, state.phase]);

  useEffect(() => {
    // The previous term's answer (or its request in flight) would otherwise sit beside the
    // new term's results until the debounce ends.
    reset();
    if (!autoAsk || question.length < minLength) return undefined;
    // Asking costs a model call, so wait until the user stops typing.
    const timer = setTimeout(() => ask(question), debounceMs);
    return () => clearTimeout(timer);
  }, [question, autoAsk, minLength, debounceMs, ask, reset]);

  if (question.length < minLength) return null;
  if (state.phase === 'idle' && autoAsk) return null;
  const content = (
    <>
      {state.phase === 'idle' ? (
        <Button
          variant="outlined"
          color="primary"
          size="small"
          onClick={askByClick}
          data-testid="ask-docs-search-ask"
        >
          {t('searchAnswer.ask', { term: question })}
        </Button>
      ) : (
        <Typography
          variant="overline"
          color="textSecondary"
          component="h2"
          display="block"
          tabIndex={-1}
          ref={title}
          data-testid="ask-docs-search-answer-title"
        >
          {t('searchAnswer.title')}
        </Typography>
      )}
      <Box>
        {/* Mounted with the button already: a live region announces changes, not arrivals. */}
        <AskStateView state={state} onRetry={askByClick} />
      </Box>
    </>
  );
  if (props.embedded) {
    return (
      <Box className={props.className} data-testid="ask-docs-search-answer">
        {content}
      </Box>
    );
  }
  return (
    <Paper
      className={`${classes.root} ${props.className ?? ''}`.trim()}
      data-testid="ask-docs-search-answer"
    >
      {content}
    </Paper>
  );
}
