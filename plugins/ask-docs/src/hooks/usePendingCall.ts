import { useRef, useState } from 'react';
import { describeError } from '../api/errors';

/**
 * API calls a control starts on click: `pending` is the key of the one running, `error` the
 * description of the last failure (cleared when another call starts; `setError` sets it from
 * elsewhere, e.g. a load on mount). Only the latest call settles them: an earlier one finishing
 * must not clear the pending key of a later one, or show its error instead. `call` gets a check
 * that says whether it is still the latest.
 */
export function usePendingCall<K>() {
  const [pending, setPending] = useState<K>();
  const [error, setError] = useState<string>();
  const latest = useRef(0);
  const run = async (
    key: K,
    call: (isLatest: () => boolean) => Promise<void>,
  ) => {
    const id = ++latest.current;
    const isLatest = () => latest.current === id;
    setPending(key);
    setError(undefined);
    try {
      await call(isLatest);
    } catch (e) {
      if (isLatest()) setError(describeError(e));
    } finally {
      if (isLatest()) setPending(undefined);
    }
  };
  return { pending, error, setError, run };
}
