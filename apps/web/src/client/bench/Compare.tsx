import { BENCHMARK_TYPES } from "@platform/contracts/limits";
import type { Run } from "./Chart.tsx";
import { formatMicros } from "./format.ts";
import { BENCH_TEXT as T } from "./text.ts";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Each workload run this visit: its median time per iteration, as a bar and as a multiple of the fastest. */
export function Compare({ runs }: { runs: Run[] }) {
  const rows = BENCHMARK_TYPES.map((type) => {
    const mine = runs.filter((r) => r.type === type).map((r) => r.perIterationUs);
    return { type, count: mine.length, us: mine.length > 0 ? median(mine) : null };
  }).filter(
    (row): row is { type: (typeof BENCHMARK_TYPES)[number]; count: number; us: number } =>
      row.us !== null,
  );
  const fastest = Math.min(...rows.map((r) => r.us));
  const slowest = Math.max(...rows.map((r) => r.us));
  return (
    <section aria-labelledby="compare-heading" data-testid="bench-compare">
      <h2 id="compare-heading">{T.compareHeading}</h2>
      <p class="hint">{T.compareNote}</p>
      <table class="compare">
        <thead>
          <tr>
            <th scope="col">{T.workload}</th>
            <th scope="col" class="num">
              {T.perIteration}
            </th>
            <th scope="col">
              <span class="visually-hidden">Bar</span>
            </th>
            <th scope="col" class="num">
              vs fastest
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.type} data-testid="compare-row" data-type={row.type}>
              <th scope="row">
                <code>{row.type}</code> <span class="hint">{T.compareRow(row.count)}</span>
              </th>
              <td class="num">{formatMicros(row.us)}</td>
              <td class="bar-cell">
                <span
                  class={`relative-bar bar-${row.type}`}
                  style={{ width: `${Math.max(2, (row.us / slowest) * 100).toFixed(1)}%` }}
                />
              </td>
              <td class="num" data-testid="compare-times">
                {T.times((row.us / fastest).toFixed(row.us / fastest < 10 ? 2 : 0))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
