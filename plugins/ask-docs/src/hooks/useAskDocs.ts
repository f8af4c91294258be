import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import type {
  AnswerRecord,
  AskResponse,
  AskScope,
} from '@askdocs/plugin-ask-docs-common';
import { askDocsApiRef } from '../api/AskDocsApi';
import {
  describeError,
  errorRequestId,
  errorStatus,
  isAbort,
  isRetryable,
} from '../api/errors';
import { isKnownPhase } from '../api/streamPhase';
import { askDocsTranslationRef } from '../translation';

/** Where the panel is in answering one question. */
export type AskState =
  | { phase: 'idle' }
  | {
      phase: 'streaming';
      question: string;
      step: 'retrieving' | 'generating';
      /** Answer text received so far. */
      text: string;
    }
  | {
      phase: 'done';
      question: string;
      response: AskResponse | AnswerRecord;
      /** 'history' when replayed from a stored answer rather than just asked. */
      origin: 'ask' | 'history';
    }
  | {
      phase: 'error';
      question: string;
      message: string;
      /** Where the backend logged the details of an internal error. */
      requestId?: string;
      /** The HTTP status of a refused request; none for a network or stream failure. */
      status?: number;
      /**
       * Whether asking again may succeed (a network error, a 5xx, a cut-off stream, an error
       * event of the stream); a 4xx such as a question that is too long fails the same again.
       */
      retryable: boolean;
    };

export interface UseAskDocs {
  state: AskState;
  /** `threadId`: the previous answer's id, to ask a follow-up in its thread. */
  ask(question: string, scope?: AskScope, threadId?: string): Promise<void>;
  /** Shows a stored answer (from the history) as if just asked. */
  show(record: AnswerRecord): void;
  /**
   * Loads a stored answer and shows it, unless a question, reset or another answer was started
   * meanwhile (which cancels the load). Resolves with the record it showed, or undefined for a
   * load that was overtaken.
   */
  open(id: string): Promise<AnswerRecord | undefined>;
  reset(): void;
}

/**
 * Asks over the streaming endpoint and tracks the result. A new question (or unmount)
 * cancels the one in flight, so late events of an old question never overwrite a new one.
 */
export function useAskDocs(): UseAskDocs {
  const api = useApi(askDocsApiRef);
  const [state, setState] = useState<AskState>({ phase: 'idle' });
  const current = useRef<AbortController>();
  // The load of a stored answer in flight. Everything that decides what is shown aborts it, so
  // it shows only if nothing was started after it, and unmounting cancels it. (A load does not
  // stop a stream; showing its answer does.)
  const loading = useRef<AbortController>();
  // Read when an error is described, so a new `t` (another language) does not make `ask` new:
  // the search card asks again whenever `ask` changes.
  const { t } = useTranslationRef(askDocsTranslationRef);
  const translate = useRef(t);
  translate.current = t;

  useEffect(
    () => () => {
      current.current?.abort();
      loading.current?.abort();
    },
    [],
  );

  const ask = useCallback(
    async (question: string, scope?: AskScope, threadId?: string) => {
      loading.current?.abort();
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      const isCurrent = () =>
        current.current === controller && !controller.signal.aborted;

      setState({ phase: 'streaming', question, step: 'retrieving', text: '' });
      try {
        const request = {
          question,
          ...(scope ? { scope } : {}),
          ...(threadId ? { threadId } : {}),
        };
        for await (const event of api.askStream(request, {
          signal: controller.signal,
        })) {
          if (!isCurrent()) return;
          switch (event.type) {
            case 'status':
              // Another AskDocsApi may pass on a phase without a text here: keep the last one.
              if (!isKnownPhase(event.phase)) break;
              setState(s =>
                s.phase === 'streaming' ? { ...s, step: event.phase } : s,
              );
              break;
            case 'delta':
              setState(s =>
                s.phase === 'streaming'
                  ? { ...s, step: 'generating', text: s.text + event.text }
                  : s,
              );
              break;
            case 'done':
              setState({
                phase: 'done',
                question,
                response: event.response,
                origin: 'ask',
              });
              return;
            case 'error':
              setState({
                phase: 'error',
                question,
                message: event.message,
                ...(event.requestId ? { requestId: event.requestId } : {}),
                // The backend failed after accepting the question, as a 5xx would.
                retryable: true,
              });
              return;
            default:
              break;
          }
        }
        // No 'done' or 'error': AskDocsClient throws then, another AskDocsApi may just stop.
        if (isCurrent()) {
          setState({
            phase: 'error',
            question,
            message: translate.current('errors.incompleteStream'),
            retryable: true,
          });
        }
      } catch (error) {
        if (isAbort(error) || !isCurrent()) return;
        const requestId = errorRequestId(error);
        const status = errorStatus(error);
        setState({
          phase: 'error',
          question,
          message: describeError(error, translate.current),
          ...(requestId ? { requestId } : {}),
          ...(status !== undefined ? { status } : {}),
          retryable: isRetryable(error),
        });
      }
    },
    [api],
  );

  const show = useCallback((record: AnswerRecord) => {
    loading.current?.abort();
    current.current?.abort();
    setState({
      phase: 'done',
      question: record.question,
      response: record,
      origin: 'history',
    });
  }, []);

  const open = useCallback(
    async (id: string) => {
      loading.current?.abort();
      const controller = new AbortController();
      loading.current = controller;
      const isCurrent = () => !controller.signal.aborted;
      let record: AnswerRecord;
      try {
        record = await api.getAnswer(id, { signal: controller.signal });
      } catch (error) {
        if (isCurrent()) throw error;
        return undefined;
      }
      if (!isCurrent()) return undefined;
      show(record);
      return record;
    },
    [api, show],
  );

  const reset = useCallback(() => {
    loading.current?.abort();
    current.current?.abort();
    setState({ phase: 'idle' });
  }, []);

  return { state, ask, show, open, reset };
}
