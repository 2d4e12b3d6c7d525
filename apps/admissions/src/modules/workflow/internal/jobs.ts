import type { Logger } from "@platform/server";

/**
 * Runs `pass` every `intervalMs` inside the server process (a pass never overlaps the
 * previous one). Everything the passes work from is in the database, so several replicas can
 * run them side by side and a restart loses nothing. `stop` waits for the pass in progress.
 */
export function startJobs<R extends Record<string, number>>(
  pass: () => Promise<R>,
  logger: Logger,
  intervalMs: number,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      const done = await pass();
      if (Object.values(done).some((n) => n > 0)) logger.info("background pass", done);
    } catch (error) {
      logger.error("background pass failed", { err: error });
    }
    if (!stopped) timer = setTimeout(() => (running = run()), intervalMs);
  };
  running = run();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
