import { useContext, useEffect, useRef, useState } from 'react';
import Button from '@material-ui/core/Button';
import List from '@material-ui/core/List';
import ListItem from '@material-ui/core/ListItem';
import ListItemText from '@material-ui/core/ListItemText';
import Typography from '@material-ui/core/Typography';
import { useApi } from '@backstage/core-plugin-api';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import type {
  AnswerRecord,
  AnswerStatus,
} from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from '../../api/AskDocsApi';
import { useLocaleFormat } from '../../hooks/useLocaleFormat';
import { usePendingCall } from '../../hooks/usePendingCall';
import { askDocsTranslationRef } from '../../translation';
import { SectionHeadingLevel } from '../headingLevel';

const STATUS_LABEL = {
  answered: 'historyList.status.answered',
  not_in_knowledge_base: 'historyList.status.notInKnowledgeBase',
  evidence_only: 'historyList.status.evidenceOnly',
} as const satisfies Record<AnswerStatus, string>;

export interface HistoryListProps {
  /** Change it to reload the list (e.g. after a new answer). */
  refreshKey?: unknown;
  /** Called with the full stored answer of the question clicked last. */
  onSelect?(record: AnswerRecord): void;
  /**
   * Instead of onSelect: opens the clicked question itself, e.g. with useAskDocs().open, which
   * also ignores a load overtaken by a newer question. The item shows as loading until it settles.
   */
  onOpen?(id: string): Promise<unknown>;
  /** Questions per page; "Show older questions" loads the next page. */
  limit?: number;
}

/** The caller's previous questions; clicking one replays its stored answer. */
export function HistoryList(props: HistoryListProps) {
  const { refreshKey, onSelect, onOpen, limit = 20 } = props;
  const api = useApi(askDocsApiRef);
  const { t } = useTranslationRef(askDocsTranslationRef);
  const format = useLocaleFormat();
  const heading = useContext(SectionHeadingLevel);
  const [items, setItems] = useState<AnswerRecord[]>();
  // A full page may have older answers behind it.
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  // While the top page reloads, the list shown is the old one: no older page is asked for it.
  const [reloading, setReloading] = useState(false);
  // The current listing from the top. The next reload (or unmount) aborts it, which cancels its
  // requests and drops their results: its own and any older page asked for before the reload.
  const listing = useRef<AbortController>();
  const { pending: loadingId, error, setError, run } = usePendingCall<string>();

  useEffect(() => {
    const controller = new AbortController();
    listing.current = controller;
    const { signal } = controller;
    setLoadingOlder(false);
    setReloading(true);
    api
      .listAnswers({ limit, signal })
      .then(list => {
        if (signal.aborted) return;
        setItems(list);
        setHasOlder(list.length >= limit);
        setError(undefined);
      })
      .catch(e => !signal.aborted && setError(e))
      .finally(() => !signal.aborted && setReloading(false));
    return () => controller.abort();
  }, [api, limit, refreshKey, setError]);

  const loadOlder = async () => {
    const oldest = items?.[items.length - 1];
    const signal = listing.current?.signal;
    if (!oldest || !signal) return;
    setLoadingOlder(true);
    try {
      const page = await api.listAnswers({ limit, before: oldest.id, signal });
      if (signal.aborted) return;
      const seen = new Set(items?.map(item => item.id));
      const older = page.filter(item => !seen.has(item.id));
      setItems(listed => [...(listed ?? []), ...older]);
      // A page of nothing new (an API that ignores `before`) ends the paging too.
      setHasOlder(page.length >= limit && older.length > 0);
      setError(undefined);
    } catch (e) {
      if (!signal.aborted) setError(e);
    } finally {
      if (!signal.aborted) setLoadingOlder(false);
    }
  };

  // The stored answer loading for onSelect: the next click or leaving the page aborts it.
  const opening = useRef<AbortController>();
  useEffect(() => () => opening.current?.abort(), []);
  const open = (id: string) =>
    run(id, async isLatest => {
      if (onOpen) {
        await onOpen(id);
        return;
      }
      opening.current?.abort();
      const controller = new AbortController();
      opening.current = controller;
      const { signal } = controller;
      const record = await api.getAnswer(id, { signal }).catch(e => {
        if (!signal.aborted) throw e;
      });
      // Clicking A, then B: A loading last must not replace B.
      if (record && isLatest() && !signal.aborted) onSelect?.(record);
    });

  return (
    <div data-testid="ask-docs-history">
      <Typography variant="subtitle2" component={heading}>
        {t('historyList.title')}
      </Typography>
      {error && (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      )}
      {items && items.length === 0 && (
        <Typography variant="body2" color="textSecondary">
          {t('historyList.empty')}
        </Typography>
      )}
      {items && items.length > 0 && (
        <List dense>
          {items.map(item => {
            const status = STATUS_LABEL[item.status];
            const details = [
              status ? t(status) : item.status,
              format.dateTime(item.createdAt),
            ];
            // Asked for the user by another plugin: the user did not type it here.
            if (item.askedVia) {
              details.push(t('historyList.askedVia', { actor: item.askedVia }));
            }
            return (
              <ListItem
                key={item.id}
                button
                disabled={loadingId === item.id}
                onClick={() => open(item.id)}
                data-testid="ask-docs-history-item"
              >
                <ListItemText
                  primary={item.question}
                  secondary={details.join(' · ')}
                />
              </ListItem>
            );
          })}
        </List>
      )}
      {items && hasOlder && (
        <Button
          size="small"
          onClick={loadOlder}
          disabled={loadingOlder || reloading}
          data-testid="ask-docs-history-older"
        >
          {t('historyList.showOlder')}
        </Button>
      )}
    </div>
  );
}
