import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { Alert, AlertTitle } from '@material-ui/lab';
import {
  CONTEXT_TOO_LARGE_NOTICE,
  EVIDENCE_ONLY_NOTICE,
  MODEL_FOUND_NO_ANSWER_NOTICE,
  NOT_IN_KNOWLEDGE_BASE_ANSWER,
  REDACTED_ANSWER_TEXT,
  UNCITED_ANSWER_NOTICE,
  UNSUPPORTED_ANSWER_NOTICE,
} from '@askdocs/plugin-ask-docs-common';
import type {
  AnswerRecord,
  AskResponse,
  NoticeReason,
} from '@askdocs/plugin-ask-docs-common';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { useLocaleFormat } from '../../hooks/useLocaleFormat';
import { askDocsTranslationRef } from '../../translation';
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

/** The UI's translation of one of the backend's fixed English texts; any other text as sent. */
function localized(
  text: string | undefined,
  fixed: string,
  translated: string,
) {
  return !text || text === fixed ? translated : text;
}

/** The UI's text for each reason there is no model answer (the backend's notice in English). */
const REASON_MESSAGES = {
  // Complete for the type's sake: the not-in-knowledge-base view words its answer itself.
  no_evidence: 'answerView.notInKnowledgeBase.message',
  model_found_no_answer: 'answerView.reasons.modelFoundNoAnswer',
  no_model: 'answerView.evidenceOnly.message',
  model_failed: 'answerView.evidenceOnly.message',
  context_too_large: 'answerView.reasons.contextTooLarge',
  uncited_answer: 'answerView.reasons.uncitedAnswer',
  unsupported_answer: 'answerView.reasons.unsupportedAnswer',
  quota_exceeded: 'answerView.reasons.quotaExceeded',
} as const satisfies Record<NoticeReason, string>;

/** Answers recorded before `reason` existed: their fixed notices say the same. */
const REASON_OF_NOTICE = new Map<string, NoticeReason>([
  [MODEL_FOUND_NO_ANSWER_NOTICE, 'model_found_no_answer'],
  [CONTEXT_TOO_LARGE_NOTICE, 'context_too_large'],
  [UNCITED_ANSWER_NOTICE, 'uncited_answer'],
  [UNSUPPORTED_ANSWER_NOTICE, 'unsupported_answer'],
]);

/**
 * Why the response holds no model answer, when the UI can word it: a reason a newer backend
 * added, or a spent quota without its limit, is shown as the notice, in the backend's words.
 */
function knownReason(response: AskResponse): NoticeReason | undefined {
  const reason =
    response.reason ??
    (response.notice ? REASON_OF_NOTICE.get(response.notice) : undefined);
  if (reason === undefined || !Object.hasOwn(REASON_MESSAGES, reason))
    return undefined;
  return reason === 'quota_exceeded' && !response.quota ? undefined : reason;
}

export interface AnswerViewProps {
  response: AskResponse | AnswerRecord;
  /** Hides the feedback buttons (e.g. in compact embeddings). */
  hideFeedback?: boolean;
}

/**
 * One finished answer in whichever state it came back in. Its notices are role="note", not
 * MUI's default "alert": they are part of the answer, which the panel's polite status region
 * announces, and an alert would interrupt the screen reader for every "Not in the knowledge
 * base". Only failures (the panel's error) are alerts.
 */
export function AnswerView(props: AnswerViewProps) {
  const { response } = props;
  const { t } = useTranslationRef(askDocsTranslationRef);
  const kind = answerKind(response);
  const outdated = isRecord(response) ? response.outdatedSources : [];
  const redacted = isRecord(response) ? response.redacted : undefined;
  // A redacted record's notice is REDACTED_NOTICE, shown once above whichever view applies.
  const notice = redacted ? undefined : response.notice;
  // Why there is no model answer, in the UI's language when the backend said why (answers
  // recorded before `reason` existed have only the English notice).
  const format = useLocaleFormat();
  const reason = knownReason(response);
  const quota = response.quota;
  let reasonText: string | undefined;
  if (reason === 'quota_exceeded' && quota)
    reasonText = t('answerView.reasons.quotaExceeded', {
      calls: format.number(quota.calls),
      window: format.duration(quota.windowSeconds),
    });
  else if (reason && reason !== 'quota_exceeded')
    reasonText = t(REASON_MESSAGES[reason]);

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
              {t('answerView.correction', {
                corrected: <strong>{c.to}</strong>,
                original: <em>{c.from}</em>,
              })}
            </span>
          ))}
        </Typography>
      )}

      {outdated.length > 0 && (
        <Box mb={2}>
          <Alert severity="warning" role="note" data-testid="ask-docs-outdated">
            {t('answerView.outdated', {
              count: outdated.length,
              titles: outdated.map(o => o.title).join(', '),
            })}{' '}
            {t('answerView.outdatedAdvice')}
          </Alert>
        </Box>
      )}

      {redacted && (
        <Box mb={2}>
          <Alert severity="info" role="note" data-testid="ask-docs-redacted">
            {t('answerView.redacted.notice')}
          </Alert>
        </Box>
      )}

      {kind === 'grounded' && (
        <>
          <AnswerText text={response.answer} sources={response.sources} />
          <Box mt={2}>
            <SourceList
              heading={t('answerView.sources')}
              testId="ask-docs-sources"
              passages={response.sources}
            />
          </Box>
        </>
      )}

      {kind === 'not-in-kb' && (
        <Alert severity="info" role="note">
          <AlertTitle>{t('answerView.notInKnowledgeBase.title')}</AlertTitle>
          {localized(
            response.answer,
            NOT_IN_KNOWLEDGE_BASE_ANSWER,
            t('answerView.notInKnowledgeBase.message'),
          )}
          {reason === 'model_found_no_answer' ? (
            <Typography variant="body2">{reasonText}</Typography>
          ) : (
            !reason &&
            notice &&
            notice !== response.answer && (
              <Typography variant="body2">{notice}</Typography>
            )
          )}
        </Alert>
      )}

      {kind === 'evidence-only' && (
        <>
          <Alert severity="warning" role="note">
            {redacted?.answerText ? (
              // The text is REDACTED_ANSWER_TEXT: the answer exists, its reader may not see it.
              <>
                <AlertTitle>{t('answerView.redacted.title')}</AlertTitle>
                {localized(
                  response.answer,
                  REDACTED_ANSWER_TEXT,
                  t('answerView.redacted.message'),
                )}
              </>
            ) : (
              <>
                <AlertTitle>{t('answerView.evidenceOnly.title')}</AlertTitle>
                {reasonText ??
                  localized(
                    notice,
                    EVIDENCE_ONLY_NOTICE,
                    t('answerView.evidenceOnly.message'),
                  )}
              </>
            )}
          </Alert>
          <Box mt={2}>
            <SourceList
              heading={t('answerView.evidence')}
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
