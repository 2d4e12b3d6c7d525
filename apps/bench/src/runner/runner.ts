import type { BenchmarkType, IterationStats } from "@platform/contracts/benchmark";
import { withSpan } from "@platform/server";
import { createRunHistory } from "./history.ts";
import { createSerialQueue } from "./queue.ts";
import { BenchmarkFailedError, type RunAttempt, runInWorker } from "./run-in-worker.ts";

export type RunnerOptions = {
  iterations: number;
  warmupIterations: number;
  /** A run (worker start included) taking longer is stopped and reported as failed. */
  timeoutMs: number;
  /** Runs allowed to wait behind the one running; more are refused. */
  maxWaiting: number;
  /**
   * Runs made at most for one request. A run over 1.1 times the median of the type's latest runs
   * was disturbed by other work on the host and is made again; 1 answers with every first run.
   */
  maxAttempts: number;
  /** Pause before the second attempt, doubled before each later one: a disturbance passes. */
  retryPauseMs?: number;
};

export type BenchmarkRun = {
  type: BenchmarkType;
  /** When the reported run's worker started (after the queue and any earlier attempts). */
  startedAt: Date;
  /** Runs made for this answer; the reported one is the last. */
  attempts: number;
  iterations: number;
  warmupIterations: number;
  totalNs: number;
  stats: IterationStats;
  checksum: number;
};

export type BenchmarkRunner = {
  run(type: BenchmarkType, signal?: AbortSignal): Promise<BenchmarkRun>;
  /** Runs waiting behind the current one. */
  readonly waiting: number;
  readonly busy: boolean;
  /** Wall time of the last answered request's runs, for Retry-After estimates. */
  readonly lastRunMs: number;
  /** Stops the running worker and drops waiting runs: for shutdown. */
  close(): void;
};

export const RETRY_PAUSE_MS = 250;

/** Waits `ms`, or less if `signal` aborts first (shutdown does not wait for a retry). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });

/**
 * Benchmarks run one at a time, each in a fresh worker (`attempt`), so no two runs share a core
 * or a heap. A run much slower than the type's recent runs is made again, at most
 * `maxAttempts` times in all; the answer is the last run made, whatever its time.
 */
export function createBenchmarkRunner(
  opts: RunnerOptions,
  attempt: RunAttempt = runInWorker,
): BenchmarkRunner {
  const queue = createSerialQueue(opts.maxWaiting);
  const history = createRunHistory();
  const stopped = new AbortController();
  const retryPauseMs = opts.retryPauseMs ?? RETRY_PAUSE_MS;
  let lastRunMs = 0;

  const execute = async (type: BenchmarkType): Promise<BenchmarkRun> => {
    const order = { type, iterations: opts.iterations, warmupIterations: opts.warmupIterations };
    const started = performance.now();
    for (let attempts = 1; ; attempts++) {
      // Collect the request thread's garbage now, so its collector does not run on the other
      // core in the middle of the timed section (measured: occasional whole runs 10-45% slower).
      Bun.gc(true);
      const startedAt = new Date();
      const report = await withSpan(
        "bench.run",
        { attributes: { "bench.type": type, "bench.attempt": attempts } },
        () => attempt(order, { timeoutMs: opts.timeoutMs, signal: stopped.signal }),
      );
      if (!report.ok) throw new BenchmarkFailedError(report.error);
      const meanNs = report.totalNs / order.iterations;
      if (attempts < opts.maxAttempts && history.isDisturbed(type, meanNs)) {
        await pause(retryPauseMs * 2 ** (attempts - 1), stopped.signal);
        continue;
      }
      history.record(type, meanNs);
      lastRunMs = performance.now() - started;
      const { totalNs, stats, checksum } = report;
      return { ...order, startedAt, attempts, totalNs, stats, checksum };
    }
  };

  return {
    run: (type, signal) => queue.run(() => execute(type), signal),
    get waiting() {
      return queue.waiting;
    },
    get busy() {
      return queue.busy;
    },
    get lastRunMs() {
      return lastRunMs;
    },
    close() {
      queue.clear();
      stopped.abort();
    },
  };
}
