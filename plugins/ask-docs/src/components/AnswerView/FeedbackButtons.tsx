import { useState } from 'react';
import IconButton from '@material-ui/core/IconButton';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import ThumbUpIcon from '@material-ui/icons/ThumbUp';
import ThumbUpOutlinedIcon from '@material-ui/icons/ThumbUpOutlined';
import ThumbDownIcon from '@material-ui/icons/ThumbDown';
import ThumbDownOutlinedIcon from '@material-ui/icons/ThumbDownOutlined';
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
  {
    rating: 'up',
    label: 'feedback.helpful',
    rated: 'feedback.ratedHelpful',
    Icon: ThumbUpOutlinedIcon,
    ChosenIcon: ThumbUpIcon,
  },
  {
    rating: 'down',
    label: 'feedback.notHelpful',
    rated: 'feedback.ratedNotHelpful',
    Icon: ThumbDownOutlinedIcon,
    ChosenIcon: ThumbDownIcon,
  },
] as const;

/** Thumbs up/down for one answer; sent once, then shown as given (filled, and said in words). */
export function FeedbackButtons(props: FeedbackButtonsProps) {
  const api = useApi(askDocsApiRef);
  const { t } = useTranslationRef(askDocsTranslationRef);
  const [given, setGiven] = useState<AnswerFeedback['rating'] | undefined>(
    props.initial?.rating,
  );
  // Thanks only for a rating given here, not for one reloaded from the history.
  const [thanked, setThanked] = useState(false);
  const { pending, error, run } = usePendingCall<AnswerFeedback['rating']>();
  const locked = pending !== undefined || given !== undefined;

  const send = (rating: AnswerFeedback['rating']) => {
    // aria-disabled, unlike disabled, does not stop clicks.
    if (locked) return;
    run(rating, async () => {
      await api.sendFeedback(props.answerId, { rating });
      setGiven(rating);
      setThanked(true);
    });
  };

  const chosen = RATINGS.find(r => r.rating === given);

  return (
    <div data-testid="ask-docs-feedback">
      <Typography variant="caption" color="textSecondary">
        {chosen ? t(chosen.rated) : t('feedback.question')}
        {thanked && <span> {t('feedback.thanks')}</span>}
      </Typography>
      {RATINGS.map(({ rating, label, Icon, ChosenIcon }) => (
        <Tooltip key={rating} title={t(label)}>
          <IconButton
            size="small"
            aria-label={t(label)}
            aria-pressed={given === rating}
            color={given === rating ? 'primary' : 'default'}
            // Not `disabled`: the buttons stay in the tab order, so the rating can still be read.
            aria-disabled={locked}
            onClick={() => send(rating)}
          >
            {given === rating ? (
              <ChosenIcon fontSize="small" data-testid="ask-docs-rated" />
            ) : (
              <Icon fontSize="small" />
            )}
          </IconButton>
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
