import {
  FormEvent,
  ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Grid from '@material-ui/core/Grid';
import LinearProgress from '@material-ui/core/LinearProgress';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { Alert, AlertTitle } from '@material-ui/lab';
import type { AskScope } from '@askdocs/plugin-ask-docs-common';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { AnswerText } from '../AnswerText';
import { followUpScope } from '../entityScope';
import { AnswerView } from '../AnswerView';
import { HistoryList } from '../HistoryList';
import { useAskDocs } from '../../hooks/useAskDocs';
import type { AskState } from '../../hooks/useAskDocs';
import { askDocsTranslationRef } from '../../translation';
import type { AskDocsTranslate } from '../../translation';

export interface AskDocsPanelProps {
  /** Restricts retrieval, e.g. to one entity's documents. */
  scope?: AskScope;
  /** Shows the caller's previous questions beside the answer. */
  showHistory?: boolean;
  /** Fills the question box on mount (e.g. from a `?q=` link); asked only with askOnMount. */
  initialQuestion?: string;
  /**
   * Asks initialQuestion on mount. Only for a question the user chose in the app (the plugin's
   * own search result link): each ask is an audited model call on the user's quota, so a
   * question from a URL anyone can send must wait for the user's click.
   */
  askOnMount?: boolean;
  placeholder?: string;
}

/** Question box, streaming answer and (optionally) the asker's history. */
export function AskDocsPanel(props: AskDocsPanelProps) {
  const { scope, showHistory, initialQuestion, askOnMount } = props;
  const { state, ask, open, reset } = useAskDocs();
  const { t } = useTranslationRef(askDocsTranslationRef);
  const [question, setQuestion] = useState(initialQuestion ?? '');
  const [answeredCount, setAnsweredCount] = useState(0);
  // The answered turns of the current thread, oldest first; the last one's id is the next
  // question's threadId (the backend reads the earlier turns itself).
  const [thread, setThread] = useState<Array<{ id: string; question: string }>>(
    [],
  );
  const [asked, setAsked] = useState<string>();
  // A thread started from a stored answer keeps that answer's scope, not the panel's.
  const [threadScope, setThreadScope] = useState<AskScope>();
  // MUI 4 ties the label to the input only through an id.
  const inputId = useId();
  // Where focus goes when the control that had it disappears (New question, Retry).
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (askOnMount && initialQuestion?.trim())
      ask(initialQuestion.trim(), scope);
    // Only the first render's question is asked automatically.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (state.phase !== 'done') return;
    const turn = { id: state.response.id, question: state.question };
    if (state.origin === 'ask') {
      setAnsweredCount(n => n + 1);
      setThread(turns =>
        turns.some(x => x.id === turn.id) ? turns : [...turns, turn],
      );
    }
  }, [state]);

  const scopeOf = (threadId?: string) => (threadId && threadScope) || scope;
  /** Asks in the current thread: a follow-up of its last answer, if there is one. */
  const askInThread = (text: string) => {
    const threadId = thread[thread.length - 1]?.id;
    setAsked(threadId);
    ask(text, scopeOf(threadId), threadId);
  };
  const newQuestion = () => {
    setThread([]);
    setThreadScope(undefined);
    setAsked(undefined);
    setQuestion('');
    reset();
    input.current?.focus();
  };
  // Questions of the thread before the one shown (up to the id the shown one followed).
  const upTo = thread.findIndex(turn => turn.id === asked);
  const previous = state.phase === 'idle' ? [] : thread.slice(0, upTo + 1);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = question.trim();
    if (trimmed) askInThread(trimmed);
  };

  const content = (
    <>
      <form onSubmit={submit} data-testid="ask-docs-form">
        <Box display="flex" alignItems="flex-start" style={{ gap: 8 }}>
          <TextField
            id={inputId}
            fullWidth
            variant="outlined"
            size="small"
            label={t('askPanel.label')}
            placeholder={props.placeholder ?? t('askPanel.placeholder')}
            value={question}
            onChange={e => setQuestion(e.target.value)}
            inputRef={input}
            // No maxLength: the browser would cut a pasted question silently; the backend's
            // limit (askDocs.answer.maxQuestionChars) answers with an error that says so.
            inputProps={{ 'data-testid': 'ask-docs-question' }}
          />
          <Button
            type="submit"
            variant="contained"
            color="primary"
            // Stays enabled while streaming: a new question replaces the one in flight.
            disabled={question.trim() === ''}
            data-testid="ask-docs-submit"
          >
            {t('askPanel.submit')}
          </Button>
          {thread.length > 0 && (
            <Button
              variant="outlined"
              onClick={newQuestion}
              data-testid="ask-docs-new-question"
            >
              {t('askPanel.newQuestion')}
            </Button>
          )}
        </Box>
      </form>
      {previous.length > 0 && (
        <Box mt={2} data-testid="ask-docs-thread">
          {previous.map((turn, i) => (
            <Typography
              key={turn.id}
              variant="caption"
              color="textSecondary"
              display="block"
            >
              {i + 1}. {turn.question}
            </Typography>
          ))}
        </Box>
      )}
      <Box mt={2}>
        <AskStateView
          state={state}
          onRetry={() => {
            ask(
              state.phase === 'error' ? state.question : question,
              scopeOf(asked),
              asked,
            );
            // The Retry button is replaced by the progress view.
            input.current?.focus();
          }}
        />
      </Box>
    </>
  );

  if (!showHistory) return content;
  return (
    <Grid container spacing={3}>
      <Grid item xs={12} md={8}>
        {content}
      </Grid>
      <Grid item xs={12} md={4}>
        <HistoryList
          refreshKey={answeredCount}
          onOpen={async id => {
            // Undefined when a newer question or click overtook this load.
            const record = await open(id);
            if (!record) return;
            setQuestion(record.question);
            // A replayed answer starts a thread of its own: follow-ups continue from it.
            setThread([{ id: record.id, question: record.question }]);
            // Its entities, if it had any; an answer across all docs leaves the panel's scope.
            setThreadScope(followUpScope(record.scope));
            setAsked(record.threadId);
          }}
        />
      </Grid>
    </Grid>
  );
}

export interface AskStateViewProps {
  state: AskState;
  /** Offered as a Retry button on an error that asking again may fix (`retryable`). */
  onRetry?: () => void;
  hideFeedback?: boolean;
}

/**
 * Renders whichever phase the current question is in, inside a polite live region that stays
 * in place across phases (one per panel), so screen readers announce the answer when it is done.
 */
export function AskStateView(props: AskStateViewProps) {
  const { t } = useTranslationRef(askDocsTranslationRef);
  return (
    <div
      role="status"
      aria-live="polite"
      // Only what changed is read: rating the answer must not read the whole answer again.
      aria-atomic={false}
      // Busy while streaming: the text is read once, whole, rather than at every delta.
      aria-busy={props.state.phase === 'streaming'}
    >
      {phaseView(props, t)}
    </div>
  );
}

function phaseView(props: AskStateViewProps, t: AskDocsTranslate): ReactNode {
  const { state } = props;
  switch (state.phase) {
    case 'idle':
      return null;
    case 'streaming':
      return (
        <div data-testid="ask-docs-streaming" aria-busy="true">
          <Typography variant="caption" color="textSecondary">
            {t(`askState.${state.step}`)}
          </Typography>
          <LinearProgress aria-label={t(`askState.${state.step}`)} />
          {state.text && (
            <Box mt={1}>
              {/* Sources arrive with the final event; until then markers stay plain text. */}
              <AnswerText text={state.text} sources={[]} />
            </Box>
          )}
        </div>
      );
    case 'error':
      return (
        <Alert
          severity="error"
          data-testid="ask-docs-state-error"
          action={
            props.onRetry &&
            state.retryable && (
              <Button color="inherit" size="small" onClick={props.onRetry}>
                {t('askState.retry')}
              </Button>
            )
          }
        >
          <AlertTitle>{t('askState.errorTitle')}</AlertTitle>
          {state.message}
          {state.requestId && (
            // For an administrator to find the details in the server's log.
            <Typography variant="caption" display="block">
              {t('askState.requestId', { requestId: state.requestId })}
            </Typography>
          )}
        </Alert>
      );
    case 'done':
      return (
        <AnswerView
          response={state.response}
          hideFeedback={props.hideFeedback}
        />
      );
    default:
      return null;
  }
}
