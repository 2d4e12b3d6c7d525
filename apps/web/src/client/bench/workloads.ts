import type { BenchmarkType } from "@platform/contracts/benchmark";

/**
 * What each workload does, in words (the same as docs/bench.md's table). The page's shell shows
 * each with its source, read from the bench app's kernels (modules/pages/workloads.ts).
 */
export const WORKLOADS: Record<BenchmarkType, { title: string; summary: string; file: string }> = {
  json: {
    title: "JSON parsing",
    summary:
      "Each iteration parses one of eight ~4 KB pages of an orders API with JSON.parse (nested objects and arrays, escapes, non-ASCII text, numbers, booleans, nulls), then reads from the result.",
    file: "json.ts",
  },
  array: {
    title: "Array operations",
    summary:
      "Each iteration takes 128 order lines through map (line totals), filter (above a threshold that moves), sort (descending) and reduce (the ten largest).",
    file: "array.ts",
  },
  string: {
    title: "String manipulation",
    summary:
      "Each iteration builds three ~200-character access-log lines, splits them into fields, searches them (indexOf, includes, startsWith, a regular expression) and rewrites them (replaceAll).",
    file: "string.ts",
  },
  crypto: {
    title: "Crypto hashing",
    summary:
      "Each iteration hashes a 16 KiB buffer with SHA-256 (Bun's native hasher), its first bytes changing every time.",
    file: "crypto.ts",
  },
};
