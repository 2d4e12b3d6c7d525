/**
 * The warm pool: `size` sandboxes started ahead of time, each handed out once and replaced at
 * once, so a run pays for Bun's start-up only when runs arrive faster than sandboxes start.
 */
import { mkdirSync, rmSync } from "node:fs";
import type { Logger } from "@platform/server";
import type { SandboxSpec } from "./command.ts";
import { type Sandbox, startSandbox } from "./sandbox.ts";

export type PoolOptions = {
  size: number;
  spec: SandboxSpec;
  /** A private folder for the sandboxes' program files; removed on close. */
  workRoot: string;
  logger: Logger;
};

export type Pool = {
  /** A ready sandbox, or an error once `waitMs` passes without one. */
  take(waitMs: number): Promise<Sandbox>;
  /**
   * Starts the replacement for a sandbox that was taken. Called once its run has answered: a
   * sandbox start is ~15 ms of CPU, and started at once it would compete with the very run it
   * replaces for the same cores.
   */
  replenish(): void;
  /** Ready now, starting now, failures in a row: for the readiness probe and the logs. */
  stats(): { ready: number; starting: number; failuresInARow: number };
  close(): Promise<void>;
};

export class NoSandboxError extends Error {
  override name = "NoSandboxError";
}

/**
 * The next item given to one of `waiters` (the first in line is given the next that becomes
 * ready), or NoSandboxError once `waitMs` passes: the sandbox pool and the checkers wait so.
 */
export function nextHandedOut<T>(
  waiters: ((item: T) => void)[],
  waitMs: number,
  what: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const waiter = (item: T) => {
      clearTimeout(timer);
      resolve(item);
    };
    const timer = setTimeout(() => {
      waiters.splice(waiters.indexOf(waiter), 1);
      reject(new NoSandboxError(`no ${what} became ready within ${waitMs} ms`));
    }, waitMs);
    waiters.push(waiter);
  });
}

/** Consecutive start failures back off up to this, so a broken host is not hammered. */
const MAX_BACKOFF_MS = 2_000;

export function createPool({ size, spec, workRoot, logger }: PoolOptions): Pool {
  mkdirSync(workRoot, { recursive: true, mode: 0o711 });
  const ready: Sandbox[] = [];
  const waiters: ((sandbox: Sandbox) => void)[] = [];
  let starting = 0;
  let failuresInARow = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const hand = (sandbox: Sandbox) => {
    const waiter = waiters.shift();
    if (waiter) waiter(sandbox);
    else ready.push(sandbox);
  };

  const startOne = () => {
    starting++;
    const sandbox = startSandbox(spec, workRoot);
    sandbox.ready.then(
      () => {
        starting--;
        failuresInARow = 0;
        if (closed) void sandbox.dispose();
        else hand(sandbox);
      },
      (error: unknown) => {
        starting--;
        failuresInARow++;
        void sandbox.dispose();
        logger.error("sandbox failed to start", { err: error, failuresInARow });
        if (closed || retryTimer) return;
        const backoff = Math.min(MAX_BACKOFF_MS, 25 * 2 ** failuresInARow);
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          fill();
        }, backoff);
      },
    );
  };

  // Waiters count as demand beyond the pool size: a burst is served as fast as sandboxes start.
  // One start per turn of the event loop: a spawn blocks the loop until the child has started
  // (measured: 7–15 ms when other programs keep both cores busy), and several in a row would hold
  // every request and probe behind them.
  let nextStart: ReturnType<typeof setImmediate> | undefined;
  const fill = () => {
    if (closed || retryTimer || nextStart) return;
    if (ready.length + starting >= size + waiters.length) return;
    startOne();
    nextStart = setImmediate(() => {
      nextStart = undefined;
      fill();
    });
  };

  // Replacements start on the next turn of the event loop, not before the run: spawning takes
  // the loop a millisecond, better spent while the taken sandbox is already running.
  let refillTimer: ReturnType<typeof setTimeout> | undefined;
  const refillSoon = () => {
    refillTimer ??= setTimeout(() => {
      refillTimer = undefined;
      fill();
    }, 0);
  };

  const take = (waitMs: number): Promise<Sandbox> => {
    for (let sandbox = ready.shift(); sandbox; sandbox = ready.shift()) {
      if (sandbox.alive()) return Promise.resolve(sandbox);
      void sandbox.dispose();
    }
    const handed = nextHandedOut(waiters, waitMs, "sandbox");
    fill();
    return handed;
  };

  fill();
  return {
    take,
    replenish: refillSoon,
    stats: () => ({ ready: ready.length, starting, failuresInARow }),
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      if (nextStart) clearImmediate(nextStart);
      clearTimeout(refillTimer);
      await Promise.all(ready.splice(0).map((sandbox) => sandbox.dispose()));
      // Sandboxes still starting dispose of themselves when they become ready or fail.
      while (starting > 0) await Bun.sleep(5);
      rmSync(workRoot, { recursive: true, force: true });
    },
  };
}
