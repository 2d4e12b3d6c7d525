import type { BenchmarkType } from "@platform/contracts/benchmark";
import { BENCHMARK_TYPES } from "@platform/contracts/limits";
import { formatMicros, niceCeiling } from "./format.ts";
import { BENCH_TEXT as T } from "./text.ts";

export type Run = { type: BenchmarkType; perIterationUs: number; timestamp: string };

const W = 640;
const H = 320;
/**
 * The top padding holds the tallest bar's label, upright above it (the longest, such as "1.23
 * ms", is about 45 px at 12 px): a label drawn over its bar, ink on the bar's colour, failed
 * WCAG's contrast whenever a run came close to the axis's top.
 */
const PAD = { left: 78, right: 8, top: 60, bottom: 56 };
const TICKS = 4;

/**
 * This visit's runs, grouped by workload: one bar per run, its height and its label the mean time
 * per iteration, on a y axis with ticks in the unit that fits. An SVG (no chart library: a few
 * rectangles do not justify 50 KB); the comparison table after it says the same in text.
 */
export function Chart({ runs }: { runs: Run[] }) {
  const top = niceCeiling(Math.max(...runs.map((r) => r.perIterationUs), 0));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const groupW = plotW / BENCHMARK_TYPES.length;
  const y = (us: number) => PAD.top + plotH - (us / top) * plotH;
  return (
    <figure class="chart" data-testid="bench-chart">
      {/* Focusable: on a phone it scrolls sideways, and a keyboard must be able to scroll it. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs a tab stop to be scrolled by keyboard (WCAG 2.1.1). */}
      <section class="chart-scroll" tabIndex={0} aria-label={T.chartTitle}>
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="chart-title chart-caption">
          <title id="chart-title">{T.chartTitle}</title>
          {Array.from({ length: TICKS + 1 }, (_, i) => {
            const value = (top * i) / TICKS;
            return (
              <g key={value} class="tick">
                <line class="grid" x1={PAD.left} x2={W - PAD.right} y1={y(value)} y2={y(value)} />
                <text x={PAD.left - 6} y={y(value) + 5} text-anchor="end">
                  {formatMicros(value)}
                </text>
              </g>
            );
          })}
          <line class="axis" x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={PAD.top + plotH} />
          <line
            class="axis"
            x1={PAD.left}
            y1={PAD.top + plotH}
            x2={W - PAD.right}
            y2={PAD.top + plotH}
          />
          <text
            class="axis-title"
            transform={`translate(14 ${PAD.top + plotH / 2}) rotate(-90)`}
            text-anchor="middle"
          >
            {T.chartY}
          </text>
          <text class="axis-title" x={PAD.left + plotW / 2} y={H - 6} text-anchor="middle">
            {T.chartX}
          </text>
          {BENCHMARK_TYPES.map((type, g) => {
            const mine = runs.filter((r) => r.type === type);
            const x0 = PAD.left + g * groupW;
            const barW = mine.length > 0 ? Math.min(40, (groupW - 16) / mine.length) : 0;
            return (
              <g key={type} data-type={type}>
                {mine.map((run, i) => {
                  const x = x0 + 8 + i * barW;
                  const barTop = y(run.perIterationUs);
                  const label = formatMicros(run.perIterationUs);
                  return (
                    <g key={run.timestamp} data-testid="bench-bar" data-us={run.perIterationUs}>
                      <rect
                        class={`bar bar-${type}`}
                        x={x}
                        y={barTop}
                        width={Math.max(barW - 3, 1)}
                        height={PAD.top + plotH - barTop}
                      />
                      {/* Upright above the bar, so labels of narrow bars never overlap. */}
                      <text
                        class="value"
                        transform={`translate(${x + barW / 2 + 4} ${barTop - 4}) rotate(-90)`}
                      >
                        {label}
                      </text>
                    </g>
                  );
                })}
                <text x={x0 + groupW / 2} y={PAD.top + plotH + 20} text-anchor="middle">
                  {`${type} (${mine.length})`}
                </text>
              </g>
            );
          })}
        </svg>
      </section>
      <figcaption id="chart-caption">{T.chartCaption(runs.length)}</figcaption>
    </figure>
  );
}
