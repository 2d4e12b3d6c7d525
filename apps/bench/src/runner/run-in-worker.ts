import type { RunOrder, RunReport } from "./protocol.ts";

export class BenchmarkFailedError extends Error {
  override name = "BenchmarkFailedError";
}

/** Runs one order and reports: a fresh worker in production, a stand-in in tests. */
export type RunAttempt = (
  order: RunOrder,
  opts: { timeoutMs: number; signal: AbortSignal },
) => Promise<RunReport>;

const WORKER_URL = new URL("./worker.ts", import.meta.url);

/**
 * One run in a fresh Worker: the request-handling thread only waits for its message, so it keeps
 * answering other requests. The worker is stopped when it reports, fails, overruns `timeoutMs`
 * or `signal` aborts (shutdown).
 */
export const runInWorker: RunAttempt = (order, { timeoutMs, signal }) =>
  new Promise<RunReport>((resolve, reject) => {
    const worker = new Worker(WORKER_URL);
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      worker.terminate();
    };
    const fail = (message: string) => {
      finish();
      reject(new BenchmarkFailedError(message));
    };
    const stop = () => fail("the benchmark worker was stopped");
    const timer = setTimeout(
      () => fail(`the run did not finish within ${timeoutMs} ms`),
      timeoutMs,
    );
    signal.addEventListener("abort", stop);
    worker.onmessage = (event: MessageEvent<RunReport>) => {
      finish();
      resolve(event.data);
    };
    worker.onerror = (event) => fail(`the benchmark worker crashed: ${event.message}`);
    // Ended without a report (terminated from outside): the run cannot report any more.
    worker.addEventListener("close", stop);
    if (signal.aborted) stop();
    else worker.postMessage(order);
  });
