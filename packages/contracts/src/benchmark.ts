import { t } from "elysia";
import { JsonInteger } from "./integer.ts";
import { BENCHMARK_ITERATIONS, BENCHMARK_TYPES } from "./limits.ts";

export { BENCHMARK_ITERATIONS, BENCHMARK_TYPES };

// Elysia's UnionEnum defaults to its first value, which would turn a missing or null `type` into
// "json"; the spec makes `type` required, so the default is removed.
export const BenchmarkType = t.UnionEnum(BENCHMARK_TYPES, { default: undefined });
export type BenchmarkType = typeof BenchmarkType.static;

export const BenchmarkRequest = t.Object({ type: BenchmarkType });
export type BenchmarkRequest = typeof BenchmarkRequest.static;

const microseconds = (description: string) => t.Number({ minimum: 0, description });

/** Per-iteration statistics of one run, in microseconds. */
export const IterationStats = t.Object({
  min: microseconds("Fastest iteration"),
  median: microseconds("Median iteration"),
  p99: microseconds("99th percentile (nearest rank)"),
  mean: microseconds("executionTime / iterations"),
  max: microseconds("Slowest iteration"),
});
export type IterationStats = typeof IterationStats.static;

export const BenchmarkResult = t.Object({
  type: BenchmarkType,
  executionTime: t.Number({ description: "Total microseconds of the timed iterations" }),
  iterations: JsonInteger({ default: BENCHMARK_ITERATIONS }),
  timestamp: t.String({ format: "date-time" }),
  // Additive fields (optional in the contract, always sent by the bench app).
  warmupIterations: t.Optional(
    JsonInteger({ minimum: 0, description: "Untimed iterations run first so the JIT is warm" }),
  ),
  perIteration: t.Optional(IterationStats),
  opsPerSecond: t.Optional(t.Number({ minimum: 0, description: "iterations / executionTime" })),
  checksum: t.Optional(
    JsonInteger({
      minimum: 0,
      description: "Every iteration's result folded into 32 bits: the same for every run of a type",
    }),
  ),
  attempts: t.Optional(
    JsonInteger({
      minimum: 1,
      description:
        "Runs made for this answer: over 1 when a run was over 1.1 times the median of recent runs of the type (disturbed by other work on the host) and was made again; the answer is the last run",
    }),
  ),
  runtime: t.Optional(
    t.Object({
      name: t.String({ examples: ["bun"] }),
      version: t.String({ examples: ["1.4.4"] }),
      platform: t.String({ examples: ["linux"] }),
      arch: t.String({ examples: ["x64"] }),
    }),
  ),
  cpu: t.Optional(
    t.Object({
      model: t.String({ description: "As the operating system reports it" }),
      cores: JsonInteger({ minimum: 1, description: "Logical cores available to the process" }),
    }),
  ),
});
export type BenchmarkResult = typeof BenchmarkResult.static;
