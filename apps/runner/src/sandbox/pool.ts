/**
 * The warm pool: `size` single-use sandboxes started ahead of time, each replaced once taken, so
 * a run pays for a sandbox's start only when runs arrive faster than sandboxes start; and the
 * reusable sandboxes kept for clients that keep coming back (kept.ts), where each run takes a
 * fresh worker instead of a whole new sandbox.
 */
import { mkdirSync, rmSync } from "node:fs";
import type { Logger } from "@platform/server";
import type { SandboxSpec } from "./command.ts";
import { createKeptSandboxes } from "./kept.ts";
import { failedStart, type Sandbox, startSandbox } from "./sandbox.ts";

export type PoolOptions = {
  size: number;
  spec: SandboxSpec;
  /** A private folder for the sandboxes' program files; removed on close. */
  workRoot: string;
  logger: Logger;
  /** Runs one reusable sandbox may serve, all for one client (1: no sandbox is reused). */
  runsPerSandbox: number;
  /** How long a used sandbox waits for its client's next run before it is disposed of. */
  idleMs: number;
  /** Runs one client may have at once: as many reusable sandboxes it may get. */
  perClient: number;
  /**
   * Throws when the folder sandboxes start in is not the runner's own any more (its work folder
   * vanished: work-folder.ts); the start then fails, as any other that fails.
   */
  checkFiles?: () => void;
  /** Told of every sandbox that failed to start (the runner looks at its work folder then). */
  onStartFailed?: (error: unknown) => void;
};

export type Pool = {
  /**
   * A sandbox for `client`'s run: its own reusable one if it has one ready, else a single-use
   * one; an error once `waitMs` passes without one.
   */
  take(client: string | undefined, waitMs: number): Promise<Sandbox>;
  /**
   * Once a run has answered: keeps a reusable sandbox for the client's next run when it may
   * serve one (a clean run, runs left), else disposes of it; counts the run towards a reusable
   * sandbox for the client (kept.ts); and starts the replacement of a single-use one taken (not
   * before: a sandbox start is ~12 ms of CPU, and would compete with the very run it replaces
   * for the same cores).
   */
  release(sandbox: Sandbox, client: string | undefined, clean: boolean): void;
  /**
   * Disposes of every sandbox started so far (those still starting, once they are ready; those
   * running a program, once it has answered), starts none until `prepare` settles, then fills
   * again: every sandbox binds the folder it started in, and a work folder that vanished is
   * made again, new (runner.ts).
   */
  renew(prepare: () => Promise<void>): Promise<void>;
  /** For the readiness probe, the metrics and the logs. */
  stats(): {
    ready: number;
    starting: number;
    failuresInARow: number;
    /** Reusable sandboxes kept for their client and waiting for its next run. */
    kept: number;
    /** Reusable sandboxes starting, or getting ready for their client's next run. */
    keptPreparing: number;
    /** Sandbox processes started since the pool was created. */
    started: number;
  };
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

export function createPool(options: PoolOptions): Pool {
  const { size, workRoot, logger } = options;
  // Whether sandboxes are reused at all is the runner's decision (the layers it needs, more
  // than one run per sandbox), carried by the spec; the single-use pool's spec says no.
  const reuse = options.spec.reuse;
  const spec = { ...options.spec, reuse: false };
  mkdirSync(workRoot, { recursive: true, mode: 0o711 });
  let started = 0;
  /** Sandboxes of an earlier generation are never handed out or kept (renew). */
  let generation = 0;
  const generationOf = new WeakMap<Sandbox, number>();
  const current = (sandbox: Sandbox) => generationOf.get(sandbox) === generation;
  let paused = false;
  /** A sandbox of this generation; one that cannot start (its files gone) rejects its ready. */
  const launch = (sandboxSpec: SandboxSpec): Sandbox => {
    let sandbox: Sandbox;
    try {
      options.checkFiles?.();
      sandbox = startSandbox(sandboxSpec, workRoot);
      started++;
    } catch (error) {
      sandbox = failedStart(error);
    }
    generationOf.set(sandbox, generation);
    return sandbox;
  };
  const kept = createKeptSandboxes({
    // As many as the single-use pool: each holds a Bun process's memory while it waits.
    max: size,
    perClient: options.perClient,
    idleMs: options.idleMs,
    start: () => launch({ ...spec, reuse: true }),
    onStartFailed: (error) => {
      logger.warn("reusable sandbox failed to start", { err: error });
      options.onStartFailed?.(error);
    },
  });
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
    const sandbox = launch(spec);
    sandbox.ready.then(
      () => {
        starting--;
        failuresInARow = 0;
        if (closed || !current(sandbox)) void sandbox.dispose();
        else hand(sandbox);
      },
      (error: unknown) => {
        starting--;
        failuresInARow++;
        void sandbox.dispose();
        logger.error("sandbox failed to start", { err: error, failuresInARow });
        options.onStartFailed?.(error);
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
    if (closed || paused || retryTimer || nextStart) return;
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

  const takeFresh = (waitMs: number): Promise<Sandbox> => {
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
    async take(client, waitMs) {
      const own = reuse && client !== undefined ? await kept.take(client) : undefined;
      return own ?? takeFresh(waitMs);
    },
    release(sandbox, client, clean) {
      refillSoon();
      if (!reuse || client === undefined || closed) return void sandbox.dispose();
      if (sandbox.reusable && current(sandbox)) {
        kept.giveBack(client, sandbox, clean && sandbox.runs() < options.runsPerSandbox);
      } else void sandbox.dispose();
      kept.noteRun(client, clean, sandbox.reusable);
    },
    async renew(prepare) {
      generation++;
      paused = true;
      await Promise.all([...ready.splice(0).map((sandbox) => sandbox.dispose()), kept.clear()]);
      try {
        await prepare();
      } finally {
        paused = false;
        fill();
      }
    },
    stats: () => {
      const { waiting, preparing } = kept.counts();
      return {
        ready: ready.length,
        starting,
        failuresInARow,
        kept: waiting,
        keptPreparing: preparing,
        started,
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      if (nextStart) clearImmediate(nextStart);
      clearTimeout(refillTimer);
      await kept.close();
      await Promise.all(ready.splice(0).map((sandbox) => sandbox.dispose()));
      // Sandboxes still starting dispose of themselves when they become ready or fail.
      while (starting > 0) await Bun.sleep(5);
      rmSync(workRoot, { recursive: true, force: true });
    },
  };
}
