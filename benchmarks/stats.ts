/**
 * The statistics the benchmarks share: the median of their rounds, how far it can be trusted,
 * and whether a budget holds at that trust.
 */

/**
 * The median (the mean of the two middle values of an even count; NaN when empty): the one
 * the bench app computes its own figures with, not a second copy.
 */
export { median } from "../apps/bench/src/runner/stats.ts";

/**
 * A 95 % confidence interval for the median of `xs` that assumes nothing about how they are
 * spread: the k-th least and k-th greatest, k the largest with P(Binomial(n, ½) < k) ≤ 2.5 %
 * (6 values: the least and the greatest, 97 %; 10: the 2nd and the 9th, 98 %; 16: the 4th and
 * the 13th, 98 %). Fewer than 6 values cannot give 95 %: undefined. Why: a budget of 5 % is
 * about as wide as this machine's round-to-round spread, so a median alone cannot say on which
 * side of it a variant lies.
 */
export function medianInterval(xs: readonly number[]): [number, number] | undefined {
  const n = xs.length;
  let k = 0;
  let below = 0; // P(Binomial(n, ½) ≤ j), summed term by term
  let term = 0.5 ** n;
  for (let j = 0; j < n; j++) {
    below += term;
    if (below > 0.025) break;
    k = j + 1;
    term = (term * (n - j)) / (j + 1);
  }
  if (k === 0) return undefined;
  const sorted = xs.toSorted((a, b) => a - b);
  return [sorted[k - 1] ?? Number.NaN, sorted[n - k] ?? Number.NaN];
}

/**
 * Where a budget stands given the interval of a ratio: within it, past it, or nearer than the
 * rounds can tell. `limit` is the worst ratio allowed; `higherIsBetter` says which side is good.
 */
export function verdict(
  interval: [number, number] | undefined,
  limit: number,
  higherIsBetter: boolean,
): "met" | "missed" | "cannot tell" {
  if (!interval) return "cannot tell";
  const [low, high] = interval;
  if (higherIsBetter ? low >= limit : high <= limit) return "met";
  if (higherIsBetter ? high < limit : low > limit) return "missed";
  return "cannot tell";
}
