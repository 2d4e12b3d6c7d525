import type { BenchmarkType } from "@platform/contracts/benchmark";
import { median } from "./stats.ts";

/** How many of a type's latest runs make its reference. */
export const HISTORY_SIZE = 9;

/**
 * A run this much slower than the reference was disturbed. Runs of one type on a quiet core stay
 * within a few percent of each other; other tenants of a shared host slow a whole 70 ms run by
 * 10-50% (docs/performance.md, "Bench accuracy").
 */
export const DISTURBED_FACTOR = 1.1;

/** Mean iteration times of recent runs, per type, in this process. */
export type RunHistory = {
  /** The median of the type's latest runs; undefined until it has two. */
  reference(type: BenchmarkType): number | undefined;
  /** Whether `meanNs` is over the reference by more than the disturbed factor. */
  isDisturbed(type: BenchmarkType, meanNs: number): boolean;
  record(type: BenchmarkType, meanNs: number): void;
};

export function createRunHistory(size = HISTORY_SIZE): RunHistory {
  const runs = new Map<BenchmarkType, number[]>();
  const reference = (type: BenchmarkType) => {
    const latest = runs.get(type) ?? [];
    return latest.length < 2 ? undefined : median(latest);
  };
  return {
    reference,
    isDisturbed(type, meanNs) {
      const typical = reference(type);
      return typical !== undefined && meanNs > typical * DISTURBED_FACTOR;
    },
    record(type, meanNs) {
      const latest = runs.get(type) ?? [];
      latest.push(meanNs);
      if (latest.length > size) latest.shift();
      runs.set(type, latest);
    },
  };
}
