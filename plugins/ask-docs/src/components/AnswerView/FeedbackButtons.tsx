import { useState } from 'react';
import IconButton from '@material-ui/core/IconButton';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import ThumbUpIcon from '@material-ui/icons/ThumbUpOutlined';
import ThumbDownIcon from '@material-ui/icons/ThumbDownOutlined';
import { useApi } from '@backstage/core-plugin-api';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import type { AnswerFeedback } from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { usePendingCall } from '../../hooks/usePendingCall';
import { askDocsTranslationRef } from '../../translation';

export interface FeedbackButtonsProps {
  answerId: string;
  /** Feedback already stored with the answer, when reloaded from the history. */
  initial?: AnswerFeedback;
}

const RATINGS = [
  { rating: 'up', label: 'feedback.helpful', Icon: ThumbUpIcon },
  { rating: 'down', label: 'feedback.notHelpful', Icon: ThumbDownIcon },
] as const;

/** Thumbs up/down for one answer; sent once, then shown as given. */
export function FeedbackButtons(props: FeedbackButtonsProps) {
  const api = useApi(askDocsApiRef);
  const { t } = useTranslationRef(askDocsTranslationRef);
  const [given, setGiven] = useState<AnswerFeedback['rating'] | undefined>(
    props.initial?.rating,
  );
  const { pending, error, run } = usePendingCall<AnswerFeedback['rating']>();

  const send = (rating: AnswerFeedback['rating']) =>
    run(rating, async () => {
      await api.sendFeedback(props.answerId, { rating });
      setGiven(rating);
    });

  return (
    <div data-testid="ask-docs-feedback">
      <Typography variant="caption" color="textSecondary">
        {given ? t('feedback.thanks') : t('feedback.question')}
      </Typography>
      {RATINGS.map(({ rating, label, Icon }) => (
        <Tooltip key={rating} title={t(label)}>
          <span>
            <IconButton
              size="small"
              aria-label={t(label)}
              aria-pressed={given === rating}
              color={given === rating ? 'primary' : 'default'}
              disabled={pending !== undefined || given !== undefined}
              onClick={() => send(rating)}
            >
              <Icon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ))}
      {error && (
        <Typography variant="caption" color="error" role="alert">
          {' '}
          {t('feedback.notSaved', { error })}
        </Typography>
      )}
    </div>
  );
}
