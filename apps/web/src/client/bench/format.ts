/**
 * Times in the unit that fits them, three significant digits: 0.412 µs is "412 ns", 85,417 µs is
 * "85.4 ms". The bench API answers microseconds.
 */
const digits = new Intl.NumberFormat("en", { maximumSignificantDigits: 3 });

export function formatMicros(us: number): string {
  if (!Number.isFinite(us) || us < 0) return "–";
  if (us === 0) return "0 µs";
  if (us < 1) return `${digits.format(us * 1000)} ns`;
  if (us < 1000) return `${digits.format(us)} µs`;
  if (us < 1_000_000) return `${digits.format(us / 1000)} ms`;
  return `${digits.format(us / 1_000_000)} s`;
}

const whole = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

/** Operations per second, whole and grouped: "117,096". */
export const formatOps = (ops: number) => whole.format(ops);

/** Iterations per second from a run's total (µs) and its iterations. */
export const opsPerSecond = (executionTimeUs: number, iterations: number) =>
  executionTimeUs > 0 ? (iterations * 1_000_000) / executionTimeUs : 0;

/** A round number at or above `max` for an axis's top (1, 2 or 5 times a power of ten). */
export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}
