import { t } from "elysia";

export const BENCHMARK_ITERATIONS = 10_000;
export const BENCHMARK_TYPES = ["json", "array", "string", "crypto"] as const;

export const BenchmarkType = t.UnionEnum(BENCHMARK_TYPES);
export type BenchmarkType = typeof BenchmarkType.static;

export const BenchmarkRequest = t.Object({ type: BenchmarkType });
export type BenchmarkRequest = typeof BenchmarkRequest.static;

export const BenchmarkResult = t.Object({
  type: BenchmarkType,
  executionTime: t.Number({ description: "Total microseconds of the timed iterations" }),
  iterations: t.Integer({ default: BENCHMARK_ITERATIONS }),
  timestamp: t.String({ format: "date-time" }),
});
export type BenchmarkResult = typeof BenchmarkResult.static;
