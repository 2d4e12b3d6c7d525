/**
 * Runs `task` once the page has painted and the browser is idle: two animation frames (the first
 * paint has happened by the second), then idle time, or a moment where there is no idle API.
 * For work the page can show without: large code, a worker.
 */
export function afterFirstPaint(task: () => void): void {
  const run = () => {
    // benchmarks/web counts what a page fetches from this moment on apart from its first load.
    if (performance.getEntriesByName(MARK).length === 0) performance.mark(MARK);
    task();
  };
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      if ("requestIdleCallback" in window) requestIdleCallback(run, { timeout: 500 });
      else setTimeout(run, 50);
    }),
  );
}

export const MARK = "after-first-paint";
