/**
 * Runs a referee REST action with busy and error state, so buttons disable themselves and
 * failures are shown next to them.
 */
import { useCallback, useState } from 'react';
import { ApiError } from './api';

/** `run(fn)` awaits fn, tracking `busy` and keeping a readable `error`. */
export function useRefereeAction(): { busy: boolean; error: string | null; run: <T>(action: () => Promise<T>) => Promise<T | undefined> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (caught) {
      setError(caught instanceof ApiError ? `${caught.message} (${caught.code})` : String(caught));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
