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
import type { IngestionProgress } from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { describeError, isForbidden } from '../../api/errors';

type Counter = {
  [K in keyof IngestionProgress]-?: IngestionProgress[K] extends number
    ? K
    : never;
}[keyof IngestionProgress];

/** The run's counters, in the order the panel shows them. */
const COUNTERS: Array<[label: string, field: Counter]> = [
  ['Entities', 'entitiesDone'],
  ['Pages done', 'pagesDone'],
  ['Pages skipped', 'pagesSkipped'],
  ['Chunks written', 'chunksWritten'],
  ['Chunks embedded', 'chunksEmbedded'],
  ['Chunks deleted', 'chunksDeleted'],
  ['Chunks re-analysed', 'chunksReanalysed'],
];

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
  /** Why the last refresh failed; cleared by the next that succeeds. */
  error?: string;
}

/**
 * Admin view of the indexing run. Renders nothing until progress has loaded once, and nothing
 * for users who may not see it (403); failures after the first load are shown inside it.
 */
export function IngestionProgressPanel(props: IngestionProgressPanelProps) {
  const { pollIntervalMs = 5000 } = props;
  const api = useApi(askDocsApiRef);
  const [load, setLoad] = useState<Load>({ forbidden: false });
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string>();

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
        error: describeError(e),
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
      setStartError(describeError(e));
    } finally {
      setStarting(false);
    }
  };

  return (
    <InfoCard
      title="Knowledge base ingestion"
      subheader="Visible to administrators"
    >
      <div data-testid="ask-docs-ingestion">
        {load.error && (
          <Typography color="error" role="alert">
            {load.error}
          </Typography>
        )}
        {running && <LinearProgress aria-label="Ingestion run in progress" />}
        <Typography variant="body2" color="textSecondary" gutterBottom>
          {describeRun(progress)}
        </Typography>
        <Box display="flex" flexWrap="wrap" style={{ gap: 24 }}>
          {COUNTERS.map(([label, field]) => (
            <Stat key={field} label={label} value={progress[field]} />
          ))}
          <Stat label="Errors" value={progress.errors.length} />
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
            Start ingestion run
          </Button>
          <Button onClick={refresh}>Refresh</Button>
          {startError && (
            <Typography variant="body2" color="error" role="alert">
              {startError}
            </Typography>
          )}
        </Box>
      </div>
    </InfoCard>
  );
}

function Stat(props: { label: string; value: number }) {
  return (
    <div
      data-testid={`ask-docs-ingestion-${props.label
        .toLowerCase()
        .replace(/ /g, '-')}`}
    >
      <Typography variant="caption" color="textSecondary" component="div">
        {props.label}
      </Typography>
      <Typography variant="h6" component="div">
        {props.value}
      </Typography>
    </div>
  );
}

function describeRun(progress: IngestionProgress): string {
  if (progress.runId === null) return 'No ingestion run yet.';
  const parts = [`Run ${progress.runId}: ${progress.status}`];
  if (progress.trigger) parts.push(`(${progress.trigger})`);
  if (progress.startedAt)
    parts.push(`started ${new Date(progress.startedAt).toLocaleString()}`);
  if (progress.finishedAt)
    parts.push(`finished ${new Date(progress.finishedAt).toLocaleString()}`);
  return parts.join(' ');
}
