// The public shapes live in the shared contracts package (the gateway and tests use them too);
// this module re-exports the ones its route speaks.
export {
  BENCHMARK_ITERATIONS,
  BENCHMARK_TYPES,
  BenchmarkRequest,
  BenchmarkResult,
  BenchmarkType,
} from "@platform/contracts/benchmark";

/**
 * Untimed iterations before the timed ones, as many again. bun:jsc reports every kernel optimised
 * by the JIT within its first 1,000 calls; the rest lets the code and the heap settle.
 */
export const WARMUP_ITERATIONS = 10_000;

/** A run that failed in its worker: the cause goes to the log, the client gets this. */
export const BENCHMARK_FAILED = {
  code: "BENCHMARK_FAILED",
  status: 500,
  title: "Benchmark failed",
  description: "The run failed in its worker or took longer than `BENCH_RUN_TIMEOUT_MS`.",
} as const;

/** The bench's own codes (the generic ones come from @platform/server). */
export const BENCH_PROBLEMS = { BENCHMARK_FAILED } as const;
