import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { Alert, AlertTitle } from '@material-ui/lab';
import {
  EVIDENCE_ONLY_NOTICE,
  NOT_IN_KNOWLEDGE_BASE_ANSWER,
  REDACTED_NOTICE,
} from '@askdocs/plugin-ask-docs-common';
import type {
  AnswerRecord,
  AskResponse,
} from '@askdocs/plugin-ask-docs-common';
import { AnswerText } from '../AnswerText';
import { FeedbackButtons } from './FeedbackButtons';
import { SourceList } from './SourceList';

/** The four visibly distinct outcomes; each has its own stable test id. */
export type AnswerKind = 'grounded' | 'not-in-kb' | 'evidence-only';

/**
 * Only an answered, grounded response is presented as an answer. Anything else
 * that carries model text without grounding is shown as evidence, never as prose.
 */
export function answerKind(response: AskResponse): AnswerKind {
  if (response.status === 'answered' && response.grounded) return 'grounded';
  if (response.status === 'not_in_knowledge_base') return 'not-in-kb';
  return 'evidence-only';
}

function isRecord(r: AskResponse | AnswerRecord): r is AnswerRecord {
  return Array.isArray((r as AnswerRecord).outdatedSources);
}

export interface AnswerViewProps {
  response: AskResponse | AnswerRecord;
  /** Hides the feedback buttons (e.g. in compact embeddings). */
  hideFeedback?: boolean;
}

/** One finished answer in whichever state it came back in. */
export function AnswerView(props: AnswerViewProps) {
  const { response } = props;
  const kind = answerKind(response);
  const outdated = isRecord(response) ? response.outdatedSources : [];
  const redacted = isRecord(response) ? response.redacted : undefined;
  // A redacted record's notice is REDACTED_NOTICE, shown once above whichever view applies.
  const notice = redacted ? undefined : response.notice;

  return (
    <Box data-testid={`ask-docs-state-${kind}`} data-answer-id={response.id}>
      {response.corrections && response.corrections.length > 0 && (
        <Typography
          variant="body2"
          color="textSecondary"
          data-testid="ask-docs-corrections"
          gutterBottom
        >
          {response.corrections.map((c, i) => (
            <span key={i}>
              {i > 0 && ' · '}
              Searched for <strong>{c.to}</strong> instead of <em>{c.from}</em>
            </span>
          ))}
        </Typography>
      )}

      {outdated.length > 0 && (
        <Box mb={2}>
          <Alert severity="warning" data-testid="ask-docs-outdated">
            A newer revision of a cited document exists:{' '}
            {outdated.map(o => o.title).join(', ')}. This answer may be out of
            date; ask again for a current one.
          </Alert>
        </Box>
      )}

      {redacted && (
        <Box mb={2}>
          <Alert severity="info" data-testid="ask-docs-redacted">
            {REDACTED_NOTICE}
          </Alert>
        </Box>
      )}

      {kind === 'grounded' && (
        <>
          <AnswerText text={response.answer} sources={response.sources} />
          <Box mt={2}>
            <SourceList
              heading="Sources"
              testId="ask-docs-sources"
              passages={response.sources}
            />
          </Box>
        </>
      )}

      {kind === 'not-in-kb' && (
        <Alert severity="info">
          <AlertTitle>Not in the knowledge base</AlertTitle>
          {response.answer || NOT_IN_KNOWLEDGE_BASE_ANSWER}
          {notice && notice !== response.answer && (
            <Typography variant="body2">{notice}</Typography>
          )}
        </Alert>
      )}

      {kind === 'evidence-only' && (
        <>
          <Alert severity="warning">
            {redacted?.answerText ? (
              // The text is REDACTED_ANSWER_TEXT: the answer exists, its reader may not see it.
              <>
                <AlertTitle>Answer redacted</AlertTitle>
                {response.answer}
              </>
            ) : (
              <>
                <AlertTitle>Not an answer</AlertTitle>
                {notice || EVIDENCE_ONLY_NOTICE}
              </>
            )}
          </Alert>
          <Box mt={2}>
            <SourceList
              heading="Relevant passages"
              testId="ask-docs-evidence"
              passages={
                response.evidence.length > 0
                  ? response.evidence
                  : response.sources
              }
            />
          </Box>
        </>
      )}

      {!props.hideFeedback && (
        <Box mt={1}>
          <FeedbackButtons
            key={response.id}
            answerId={response.id}
            initial={isRecord(response) ? response.feedback : undefined}
          />
        </Box>
      )}
    </Box>
  );
}
