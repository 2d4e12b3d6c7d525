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
