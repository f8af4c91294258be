import { useState } from 'react';
import { describeError } from '../api/errors';

/**
 * API calls a control starts on click: `pending` is the key of the one running, `error` the
 * description of the last failure (cleared when another call starts; `setError` sets it from
 * elsewhere, e.g. a load on mount).
 */
export function usePendingCall<K>() {
  const [pending, setPending] = useState<K>();
  const [error, setError] = useState<string>();
  const run = async (key: K, call: () => Promise<void>) => {
    setPending(key);
    setError(undefined);
    try {
      await call();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setPending(undefined);
    }
  };
  return { pending, error, setError, run };
}
