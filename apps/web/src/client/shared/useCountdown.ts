import { useEffect, useMemo, useState } from "preact/hooks";

/**
 * Whole seconds left of a wait that started when `seconds` was set; 0 once it is over. Derived
 * at render, so the very render that shows a refusal also shows the wait. `since` restarts the
 * count when a new refusal brings the same number of seconds.
 */
export function useCountdown(seconds: number | null, since?: unknown): number {
  const until = useMemo(
    () => (seconds && seconds > 0 ? Date.now() + seconds * 1000 : 0),
    [seconds, since],
  );
  const [, tick] = useState(0);
  useEffect(() => {
    if (until === 0) return;
    const timer = setInterval(() => {
      tick((n) => n + 1);
      if (Date.now() >= until) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return until === 0 ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000));
}
