/** The local clock as React state, ticking every `intervalMs` milliseconds while `active`. */
import { useEffect, useState } from 'react';

/** Date.now(), refreshed on an interval. */
export function useNow(intervalMs = 1000, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}
