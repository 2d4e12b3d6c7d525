import type { KernelFactory } from "./types.ts";

const RECORDS = 128;

type LineItem = { price: number; quantity: number; discounted: boolean };

const lineTotal = (item: LineItem) => item.price * item.quantity * (item.discounted ? 0.9 : 1);
const descending = (a: number, b: number) => b - a;

/**
 * Array operations over 128 order lines: line totals (map), the ones above a threshold that moves
 * with the iteration (filter), ranked highest first (sort of a fresh array, so it never starts
 * out sorted), then the sum of the ten largest (reduce); the result adds how many were kept.
 */
export const arrayKernel: KernelFactory = () => {
  // A fixed pseudo-random sequence (LCG), so every run and every harness sees the same data.
  let seed = 0x2545f491;
  const next = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 0x1_0000_0000;
  };
  const items: LineItem[] = Array.from({ length: RECORDS }, () => ({
    price: Math.round(next() * 50_000) / 100,
    quantity: 1 + Math.floor(next() * 9),
    discounted: next() < 0.3,
  }));
  return (iteration) => {
    const threshold = (iteration % 100) * 5;
    const ranked = items
      .map(lineTotal)
      .filter((total) => total > threshold)
      .sort(descending);
    const topTen = ranked.reduce((sum, total, rank) => (rank < 10 ? sum + total : sum), 0);
    return ranked.length + Math.trunc(topTen);
  };
};
