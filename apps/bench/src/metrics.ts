/**
 * The bench's own metrics beside the request metrics every app has: its one-at-a-time queue
 * (read when scraped) and how many attempts each answered run took (a run whose timing was
 * disturbed is measured again, docs/bench.md).
 */
import { Gauge, Histogram, type Metrics } from "@platform/server";
import type { BenchmarkResult } from "./modules/benchmark/model.ts";
import type { BenchmarkRunner } from "./runner/runner.ts";

export type CountRun = (result: BenchmarkResult) => void;

export function benchMetrics(metrics: Metrics, runner: BenchmarkRunner): CountRun {
  const registers = [metrics.registry];
  new Gauge({
    name: "bench_queue",
    help: "Runs by state: running (0 or 1) and waiting behind it.",
    labelNames: ["state"] as const,
    registers,
    collect() {
      this.set({ state: "running" }, runner.busy ? 1 : 0);
      this.set({ state: "waiting" }, runner.waiting);
    },
  });
  const attempts = new Histogram({
    name: "bench_run_attempts",
    help: "Attempts an answered run took, by benchmark type.",
    labelNames: ["type"] as const,
    buckets: [1, 2, 3, 4, 5],
    registers,
  });
  return (result) => {
    if (result.attempts !== undefined) attempts.observe({ type: result.type }, result.attempts);
  };
}
