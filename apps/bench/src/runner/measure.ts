import { edenGC, fullGC } from "bun:jsc";
import type { Kernel } from "../kernels/index.ts";

/**
 * How often the young generation is collected by hand, outside the timed section. Often enough
 * that JavaScriptCore's own allocation-triggered collections, which land inside a timed
 * iteration, stop showing up (measured: without this, 100-1000 µs pauses every ~75 iterations
 * right after the full collection, every ~1000 later; with it, almost none), and that the memory
 * an allocating kernel writes between two collections stays small. The second is what makes
 * runs repeatable on a shared host: with a collection every 64 iterations, 22 of 400 `json` runs
 * were over 10% slower than the median run; every 32, none of 280 (series alternated in the same
 * hour; docs/bench.md). Rarely enough that the extra collections cost little wall time.
 */
export const GC_INTERVAL = 32;

/** FNV-1a's offset basis: where every checksum starts. */
export const CHECKSUM_SEED = 0x811c9dc5;

export type MeasureOptions = { iterations: number; warmupIterations: number };

export type Measurement = {
  /** Nanoseconds of each timed iteration, in run order. */
  samplesNs: Float64Array;
  totalNs: number;
  /** Every iteration's result folded together, warm-up included: the work cannot be dropped. */
  checksum: number;
};

/** Folds one kernel result into the running checksum (FNV-style multiply, kept in 32 bits). */
export const foldChecksum = (checksum: number, result: number) =>
  Math.imul(checksum ^ (result | 0), 16_777_619) >>> 0;

/**
 * Runs `kernel` untimed for the warm-up (so the JIT has optimised it), collects the
 * warm-up's garbage, then times each iteration on its own with `Bun.nanoseconds`. Collections
 * run between iterations, outside the timer, so the samples hold the workload and not the
 * collector; their sum is the reported total.
 */
export function measure(kernel: Kernel, opts: MeasureOptions): Measurement {
  let checksum = CHECKSUM_SEED;
  for (let i = 0; i < opts.warmupIterations; i++) checksum = foldChecksum(checksum, kernel(i));
  fullGC();

  const samplesNs = new Float64Array(opts.iterations);
  let totalNs = 0;
  for (let i = 0; i < opts.iterations; i++) {
    const start = Bun.nanoseconds();
    const result = kernel(opts.warmupIterations + i);
    const elapsed = Bun.nanoseconds() - start;
    samplesNs[i] = elapsed;
    totalNs += elapsed;
    checksum = foldChecksum(checksum, result);
    if ((i + 1) % GC_INTERVAL === 0) edenGC();
  }
  return { samplesNs, totalNs, checksum };
}
