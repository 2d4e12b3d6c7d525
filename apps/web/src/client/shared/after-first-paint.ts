/**
 * Runs `task` once the page has painted and the browser is idle: two animation frames (the first
 * paint has happened by the second), then idle time, or a moment where there is no idle API.
 * For work the page can show without: large code, a worker.
 */
export function afterFirstPaint(task: () => void): void {
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      if ("requestIdleCallback" in window) requestIdleCallback(task, { timeout: 500 });
      else setTimeout(task, 50);
    }),
  );
}
