import { useRef, useState } from 'react';
import { useTranslationRef } from '@backstage/frontend-plugin-api';
import { describeError } from '../api/errors';
import { askDocsTranslationRef } from '../translation';

/**
 * API calls a control starts on click: `pending` is the key of the one running, `error` the
 * description of the last failure (cleared when another call starts; `setError` records one from
 * elsewhere, e.g. a load on mount). Only the latest call settles them: an earlier one finishing
 * must not clear the pending key of a later one, or show its error instead. `call` gets a check
 * that says whether it is still the latest.
 */
export function usePendingCall<K>() {
  const { t } = useTranslationRef(askDocsTranslationRef);
  const [pending, setPending] = useState<K>();
  // Kept as thrown and described when shown, in the language shown then.
  const [failure, setFailure] = useState<unknown>();
  const latest = useRef(0);
  const run = async (
    key: K,
    call: (isLatest: () => boolean) => Promise<void>,
  ) => {
    const id = ++latest.current;
    const isLatest = () => latest.current === id;
    setPending(key);
    setFailure(undefined);
    try {
      await call(isLatest);
    } catch (e) {
      if (isLatest()) setFailure(e);
    } finally {
      if (isLatest()) setPending(undefined);
    }
  };
  const error = failure === undefined ? undefined : describeError(failure, t);
  // setError takes what was thrown (or undefined), as the calls' own failures are kept.
  return { pending, error, setError: setFailure, run };
}
