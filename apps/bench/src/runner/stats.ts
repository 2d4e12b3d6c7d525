import type { IterationStats } from "@platform/contracts/benchmark";

/** Nearest-rank percentile of ascending `sorted` (p in 0..1). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(p * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** The middle of ascending `sorted` (the mean of the two middle values for an even count). */
function middleOf(sorted: ArrayLike<number>): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/** The median of `values`, in any order (NaN when empty). */
export const median = (values: readonly number[]): number =>
  middleOf(values.toSorted((a, b) => a - b));

/** Per-iteration statistics of nanosecond samples, in microseconds. */
export function iterationStats(samplesNs: Float64Array, totalNs: number): IterationStats {
  const sorted = Float64Array.from(samplesNs).sort();
  const us = (ns: number) => ns / 1_000;
  return {
    min: us(sorted[0] ?? Number.NaN),
    median: us(middleOf(sorted)),
    p99: us(percentile(sorted, 0.99)),
    mean: us(totalNs / samplesNs.length),
    max: us(sorted[sorted.length - 1] ?? Number.NaN),
  };
}
