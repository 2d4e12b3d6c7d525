import type { BenchmarkType, IterationStats } from "@platform/contracts/benchmark";
import type { RunOrder, RunReport } from "./protocol.ts";
import { createSerialQueue } from "./queue.ts";

export class BenchmarkFailedError extends Error {
  override name = "BenchmarkFailedError";
}

export type RunnerOptions = {
  iterations: number;
  warmupIterations: number;
  /** A run (worker start included) taking longer is stopped and reported as failed. */
  timeoutMs: number;
  /** Runs allowed to wait behind the one running; more are refused. */
  maxWaiting: number;
};

export type BenchmarkRun = {
  type: BenchmarkType;
  /** When the run left the queue and its worker was started. */
  startedAt: Date;
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
  /** Wall time of the last finished run (worker start to report), for Retry-After estimates. */
  readonly lastRunMs: number;
  /** Stops the running worker and drops waiting runs: for shutdown. */
  close(): void;
};

const WORKER_URL = new URL("./worker.ts", import.meta.url);

/**
 * Benchmarks run one at a time, each in a fresh Worker: the request-handling thread only waits
 * for a message, so it keeps answering other requests, and no two runs share a core or a heap.
 */
export function createBenchmarkRunner(opts: RunnerOptions): BenchmarkRunner {
  const queue = createSerialQueue(opts.maxWaiting);
  let active: Worker | undefined;
  let lastRunMs = 0;

  const runInWorker = (order: RunOrder) =>
    new Promise<RunReport>((resolve, reject) => {
      const worker = new Worker(WORKER_URL);
      active = worker;
      const finish = () => {
        clearTimeout(timer);
        worker.terminate();
        if (active === worker) active = undefined;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new BenchmarkFailedError(`the run did not finish within ${opts.timeoutMs} ms`));
      }, opts.timeoutMs);
      worker.onmessage = (event: MessageEvent<RunReport>) => {
        finish();
        resolve(event.data);
      };
      worker.onerror = (event) => {
        finish();
        reject(new BenchmarkFailedError(`the benchmark worker crashed: ${event.message}`));
      };
      // Terminated from outside (close() at shutdown): the run cannot report any more.
      worker.addEventListener("close", () => {
        finish();
        reject(new BenchmarkFailedError("the benchmark worker was stopped"));
      });
      worker.postMessage(order);
    });

  const execute = async (type: BenchmarkType): Promise<BenchmarkRun> => {
    const order = { type, iterations: opts.iterations, warmupIterations: opts.warmupIterations };
    // Collect the request thread's garbage now, so its collector does not run on the other core
    // in the middle of the timed section (measured: occasional whole runs 10-45% slower).
    Bun.gc(true);
    const startedAt = new Date();
    const started = performance.now();
    const report = await runInWorker(order);
    lastRunMs = performance.now() - started;
    if (!report.ok) throw new BenchmarkFailedError(report.error);
    return {
      ...order,
      startedAt,
      totalNs: report.totalNs,
      stats: report.stats,
      checksum: report.checksum,
    };
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
      active?.terminate();
    },
  };
}
