import { useEffect, useState } from "preact/hooks";

/**
 * Whole seconds left of a wait that started when `seconds` was set; 0 once it is over. `since`
 * restarts the count when a new refusal brings the same number of seconds.
 */
export function useCountdown(seconds: number | null, since?: unknown): number {
  const [left, setLeft] = useState(seconds ?? 0);
  useEffect(() => {
    if (seconds === null || seconds <= 0) {
      setLeft(0);
      return;
    }
    const until = Date.now() + seconds * 1000;
    setLeft(seconds);
    const timer = setInterval(() => {
      const remaining = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [seconds, since]);
  return left;
}
