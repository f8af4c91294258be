import { useCallback, useEffect, useState } from 'react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import LinearProgress from '@material-ui/core/LinearProgress';
import List from '@material-ui/core/List';
import ListItem from '@material-ui/core/ListItem';
import ListItemText from '@material-ui/core/ListItemText';
import Typography from '@material-ui/core/Typography';
import { InfoCard } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import type { IngestionProgress } from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { describeError, isForbidden } from '../../api/errors';
import { useLocaleFormat } from '../../hooks/useLocaleFormat';
import { askDocsTranslationRef } from '../../translation';
import type { AskDocsTranslate } from '../../translation';

type Counter = {
  [K in keyof IngestionProgress]-?: IngestionProgress[K] extends number
    ? K
    : never;
}[keyof IngestionProgress];

/** The run's counters, in the order the panel shows them, with their test ids. */
const COUNTERS = [
  ['entitiesDone', 'entities'],
  ['pagesDone', 'pages-done'],
  ['pagesSkipped', 'pages-skipped'],
  ['chunksWritten', 'chunks-written'],
  ['chunksEmbedded', 'chunks-embedded'],
  ['chunksDeleted', 'chunks-deleted'],
  ['chunksReanalysed', 'chunks-re-analysed'],
] as const satisfies ReadonlyArray<readonly [Counter, string]>;

export interface IngestionProgressPanelProps {
  /** How often to refresh while a run is in progress. */
  pollIntervalMs?: number;
}

/** A failed first load is tried again at this many poll intervals (30 s by default). */
const FIRST_LOAD_RETRY_FACTOR = 6;

interface Load {
  forbidden: boolean;
  /**
   * The last progress read; kept through failed refreshes. Until one is read the panel stays
   * hidden: a first failure other than 403 (a proxy's 502) says nothing about being an admin.
   */
  progress?: IngestionProgress;
  /** Why the last refresh failed (as thrown); cleared by the next that succeeds. */
  error?: unknown;
}

/**
 * Admin view of the indexing run. Renders nothing until progress has loaded once, and nothing
 * for users who may not see it (403); failures after the first load are shown inside it.
 */
export function IngestionProgressPanel(props: IngestionProgressPanelProps) {
  const { pollIntervalMs = 5000 } = props;
  const api = useApi(askDocsApiRef);
  const { t } = useTranslationRef(askDocsTranslationRef);
  const format = useLocaleFormat();
  const [load, setLoad] = useState<Load>({ forbidden: false });
  const [starting, setStarting] = useState(false);
  // Failures are kept as thrown and described when shown, in the language shown then.
  const [startError, setStartError] = useState<unknown>();

  const refresh = useCallback(async () => {
    try {
      const progress = await api.getIngestionProgress();
      setLoad({ forbidden: false, progress });
    } catch (e) {
      // One failed refresh (a proxy timeout, a restarting backend) keeps the last progress, so
      // a running run stays running and polling goes on.
      setLoad(l => ({
        ...l,
        forbidden: isForbidden(e),
        error: e,
      }));
    }
  }, [api]);

  useEffect(() => {
    refresh();
  }, [refresh]);

  const { progress } = load;
  // A 403 stops polling: the reader lost the permission, the panel is gone.
  const running = !load.forbidden && progress?.status === 'running';
  // A first load that failed otherwise (a 502 while the backend restarts) is tried again, more
  // slowly: an admin would not see the panel until the page is reloaded.
  const retrying = !load.forbidden && !progress && load.error !== undefined;
  useEffect(() => {
    if (!running && !retrying) return undefined;
    const timer = setInterval(
      refresh,
      running ? pollIntervalMs : pollIntervalMs * FIRST_LOAD_RETRY_FACTOR,
    );
    return () => clearInterval(timer);
  }, [running, retrying, refresh, pollIntervalMs]);

  if (load.forbidden || !progress) return null;

  const start = async () => {
    setStarting(true);
    setStartError(undefined);
    try {
      await api.startIngestion();
      await refresh();
    } catch (e) {
      setStartError(e);
    } finally {
      setStarting(false);
    }
  };

  return (
    <InfoCard
      title={t('ingestionPanel.title')}
      subheader={t('ingestionPanel.subheader')}
    >
      <div data-testid="ask-docs-ingestion">
        {load.error !== undefined && (
          <Typography color="error" role="alert">
            {describeError(load.error, t)}
          </Typography>
        )}
        {running && (
          <LinearProgress aria-label={t('ingestionPanel.inProgress')} />
        )}
        <Typography variant="body2" color="textSecondary" gutterBottom>
          {describeRun(progress, t, format.dateTime)}
        </Typography>
        <Box display="flex" flexWrap="wrap" style={{ gap: 24 }}>
          {COUNTERS.map(([field, testId]) => (
            <Stat
              key={field}
              label={t(`ingestionPanel.counters.${field}`)}
              value={format.number(progress[field])}
              testId={testId}
            />
          ))}
          <Stat
            label={t('ingestionPanel.counters.errors')}
            value={format.number(progress.errors.length)}
            testId="errors"
          />
        </Box>
        {progress.errors.length > 0 && (
          <List dense data-testid="ask-docs-ingestion-error-list">
            {progress.errors.slice(0, 50).map((error, i) => (
              <ListItem key={i} disableGutters>
                <ListItemText
                  primary={error.message}
                  secondary={[error.entityRef, error.page]
                    .filter(Boolean)
                    .join(' · ')}
                />
              </ListItem>
            ))}
          </List>
        )}
        <Box mt={2} display="flex" alignItems="center" style={{ gap: 8 }}>
          <Button
            variant="outlined"
            onClick={start}
            disabled={starting || running}
          >
            {t('ingestionPanel.start')}
          </Button>
          <Button onClick={refresh}>{t('ingestionPanel.refresh')}</Button>
          {startError !== undefined && (
            <Typography variant="body2" color="error" role="alert">
              {describeError(startError, t)}
            </Typography>
          )}
        </Box>
      </div>
    </InfoCard>
  );
}

function Stat(props: { label: string; value: string; testId: string }) {
  return (
    <div data-testid={`ask-docs-ingestion-${props.testId}`}>
      <Typography variant="caption" color="textSecondary" component="div">
        {props.label}
      </Typography>
      <Typography variant="h6" component="div">
        {props.value}
      </Typography>
    </div>
  );
}

const RUN_STATUSES: Record<IngestionProgress['status'], true> = {
  idle: true,
  running: true,
  succeeded: true,
  failed: true,
};
const RUN_TRIGGERS: Record<NonNullable<IngestionProgress['trigger']>, true> = {
  schedule: true,
  manual: true,
};

function describeRun(
  progress: IngestionProgress,
  t: AskDocsTranslate,
  dateTime: (iso: string) => string,
): string {
  if (progress.runId === null) return t('ingestionPanel.noRun');
  // A status or trigger a newer backend added is shown as sent, not as a message key.
  const status = Object.hasOwn(RUN_STATUSES, progress.status)
    ? t(`ingestionPanel.status.${progress.status}`)
    : String(progress.status);
  const parts: string[] = [
    t('ingestionPanel.run', { runId: String(progress.runId), status }),
  ];
  if (progress.trigger)
    parts.push(
      Object.hasOwn(RUN_TRIGGERS, progress.trigger)
        ? t(`ingestionPanel.trigger.${progress.trigger}`)
        : `(${progress.trigger})`,
    );
  if (progress.startedAt) {
    const date = dateTime(progress.startedAt);
    parts.push(t('ingestionPanel.startedAt', { date }));
  }
  if (progress.finishedAt) {
    const date = dateTime(progress.finishedAt);
    parts.push(t('ingestionPanel.finishedAt', { date }));
  }
  return parts.join(' ');
}
