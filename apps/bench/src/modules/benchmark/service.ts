import { availableParallelism, cpus } from "node:os";
import { HttpProblem, type Logger } from "@platform/server";
import { QueueCancelledError, QueueFullError } from "../../runner/queue.ts";
import type { BenchmarkRun, BenchmarkRunner } from "../../runner/runner.ts";
import { BENCHMARK_FAILED, type BenchmarkResult, type BenchmarkType } from "./model.ts";

/** Microseconds to the nanosecond, which is what Bun.nanoseconds resolves. */
const toMicros = (us: number) => Math.round(us * 1_000) / 1_000;

/** What the numbers were measured on; read once, it does not change while the process runs. */
export const hostDescription = (() => {
  const model = cpus()[0]?.model.trim();
  return {
    runtime: { name: "bun", version: Bun.version, platform: process.platform, arch: process.arch },
    cpu: { model: model || "unknown", cores: availableParallelism() },
  };
})();

export function toResult(run: BenchmarkRun): BenchmarkResult {
  const { stats } = run;
  return {
    type: run.type,
    executionTime: toMicros(run.totalNs / 1_000),
    iterations: run.iterations,
    timestamp: run.startedAt.toISOString(),
    warmupIterations: run.warmupIterations,
    perIteration: {
      min: toMicros(stats.min),
      median: toMicros(stats.median),
      p99: toMicros(stats.p99),
      mean: toMicros(stats.mean),
      max: toMicros(stats.max),
    },
    opsPerSecond: Math.round((run.iterations / run.totalNs) * 1e10) / 10,
    checksum: run.checksum,
    attempts: run.attempts,
    ...hostDescription,
  };
}

/**
 * Queues a run and waits for it. A full queue is a 503 with a Retry-After estimated from the
 * last run's duration; a failed run is a 500 whose cause goes to the log, not to the client.
 */
export async function runBenchmark(
  deps: { runner: BenchmarkRunner; logger: Logger },
  type: BenchmarkType,
  signal?: AbortSignal,
): Promise<BenchmarkResult> {
  const { runner, logger } = deps;
  try {
    return toResult(await runner.run(type, signal));
  } catch (error) {
    if (error instanceof QueueFullError) {
      const seconds = Math.max(1, Math.ceil(((runner.waiting + 1) * runner.lastRunMs) / 1_000));
      throw new HttpProblem("SERVICE_UNAVAILABLE", {
        detail: `Too many benchmark runs are waiting (${runner.waiting}); retry in ${seconds} s`,
        headers: { "retry-after": String(seconds) },
      });
    }
    if (error instanceof QueueCancelledError) {
      throw new HttpProblem("SERVICE_UNAVAILABLE", {
        detail: `The benchmark run was cancelled before it started: ${error.message}`,
      });
    }
    logger.error("benchmark run failed", { type, err: error });
    throw new HttpProblem(BENCHMARK_FAILED, {
      detail: `The ${type} benchmark could not be completed; try again later`,
    });
  }
}
