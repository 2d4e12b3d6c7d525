import type { Logger } from "@platform/server";

/**
 * Work a request starts and does not wait for, tracked so shutdown (and a test) can wait for
 * it. Used where the answer must not depend on the work, nor its timing: a password-reset
 * request answers the same, in the same time, whether or not the address has an account.
 */
export type AfterResponse = {
  run(label: string, task: () => Promise<unknown>): void;
  /** Resolves once everything started so far has finished. */
  settled(): Promise<void>;
};

export function afterResponse(logger: Logger): AfterResponse {
  const running = new Set<Promise<unknown>>();
  return {
    run(label, task) {
      const done: Promise<unknown> = task()
        .catch((err) => logger.error("work after the response failed", { work: label, err }))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
