import type { BenchmarkType } from "@platform/contracts/benchmark";
import { BENCHMARK_TYPES } from "@platform/contracts/limits";

export type Run = { type: BenchmarkType; perIterationUs: number; timestamp: string };

const W = 480;
const H = 220;
const PAD = { left: 8, bottom: 28, top: 28 };

/**
 * This visit's runs, grouped by type: one bar per run, height the per-iteration time. An SVG
 * (no chart library: a few rectangles do not justify 50 KB), described for screen readers by
 * the table that follows it.
 */
export function Chart({ runs }: { runs: Run[] }) {
  const max = Math.max(...runs.map((r) => r.perIterationUs), 0);
  const groupWidth = (W - PAD.left) / BENCHMARK_TYPES.length;
  const plotH = H - PAD.bottom - PAD.top;
  return (
    <figure class="chart" data-testid="bench-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="chart-caption">
        <title>Per-iteration time by benchmark type</title>
        <line class="axis" x1={PAD.left} y1={H - PAD.bottom} x2={W} y2={H - PAD.bottom} />
        <text x={4} y={18}>
          {max > 0 ? `tallest: ${max.toFixed(2)} µs per iteration` : ""}
        </text>
        {BENCHMARK_TYPES.map((type, g) => {
          const mine = runs.filter((r) => r.type === type);
          const x0 = PAD.left + g * groupWidth;
          const barW = mine.length > 0 ? Math.min(24, (groupWidth - 16) / mine.length) : 0;
          return (
            <g key={type}>
              {mine.map((run, i) => {
                const h = max > 0 ? (run.perIterationUs / max) * plotH : 0;
                return (
                  <rect
                    key={run.timestamp}
                    class="bar"
                    x={x0 + 8 + i * barW}
                    y={H - PAD.bottom - h}
                    width={Math.max(barW - 2, 1)}
                    height={h}
                  />
                );
              })}
              <text x={x0 + 8} y={H - 8}>{`${type} (${mine.length})`}</text>
            </g>
          );
        })}
      </svg>
      <figcaption id="chart-caption">
        Per-iteration time of each run this visit, by type ({runs.length} run
        {runs.length === 1 ? "" : "s"}).
      </figcaption>
    </figure>
  );
}
