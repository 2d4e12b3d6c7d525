import { AsyncLocalStorage } from "node:async_hooks";

export class QueueFullError extends Error {
  override name = "QueueFullError";
}

export class QueueCancelledError extends Error {
  override name = "QueueCancelledError";
}

export type SerialQueue = {
  /**
   * Runs `task` once every task accepted before it has settled, never two at once. Refused with
   * QueueFullError when `maxWaiting` tasks already wait; a task whose `signal` aborts while it
   * waits is dropped without running.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Tasks accepted but not started. */
  readonly waiting: number;
  readonly busy: boolean;
  /** Drops every waiting task (they reject with QueueCancelledError); the running one finishes. */
  clear(): void;
};

type Waiter = { start: () => void; cancel: (reason: string) => void };

export function createSerialQueue(maxWaiting: number): SerialQueue {
  const waiters: Waiter[] = [];
  let busy = false;

  const next = () => {
    const waiter = waiters.shift();
    if (waiter) waiter.start();
    else busy = false;
  };

  return {
    get waiting() {
      return waiters.length;
    },
    get busy() {
      return busy;
    },
    clear() {
      for (const waiter of waiters.splice(0)) waiter.cancel("the queue was cleared");
    },
    run<T>(queued: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      // A waiting task is started by the one before it: bound here, it runs as part of the
      // request that queued it (its log lines' ids, its trace), not the one that finished.
      const task = AsyncLocalStorage.bind(queued);
      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(new QueueCancelledError("cancelled before it started"));
        const onAbort = () => waiter.cancel("cancelled while waiting");
        const waiter: Waiter = {
          start() {
            signal?.removeEventListener("abort", onAbort);
            new Promise<T>((settle) => settle(task())).then(resolve, reject).finally(next);
          },
          cancel(reason) {
            signal?.removeEventListener("abort", onAbort);
            const index = waiters.indexOf(waiter);
            if (index !== -1) waiters.splice(index, 1);
            reject(new QueueCancelledError(reason));
          },
        };
        if (!busy) {
          busy = true;
          return waiter.start();
        }
        if (waiters.length >= maxWaiting) {
          return reject(new QueueFullError(`${waiters.length} runs are already waiting`));
        }
        waiters.push(waiter);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}
