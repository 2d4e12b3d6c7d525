import type { BenchmarkType, IterationStats } from "@platform/contracts/benchmark";

/** What the main thread asks a benchmark worker to run (one order per worker). */
export type RunOrder = { type: BenchmarkType; iterations: number; warmupIterations: number };

/** What the worker answers: the measurement, summarised, or why it failed. */
export type RunReport =
  | { ok: true; totalNs: number; stats: IterationStats; checksum: number }
  | { ok: false; error: string };
