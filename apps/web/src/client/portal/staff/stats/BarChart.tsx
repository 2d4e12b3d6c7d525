/** One bar per label, drawn to scale: a small SVG (no chart library), with the numbers written. */
export function BarChart({
  title,
  bars,
}: {
  title: string;
  bars: { label: string; value: number }[];
}) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 28;
  const labelWidth = 200;
  const barWidth = 360;
  const height = bars.length * row + 8;
  return (
    <svg
      class="bar-chart"
      viewBox={`0 0 ${labelWidth + barWidth + 60} ${height}`}
      role="img"
      aria-label={title}
      data-testid="stats-chart"
    >
      {bars.map((bar, i) => {
        const y = i * row + 4;
        const width = Math.round((bar.value / max) * barWidth);
        return (
          <g key={bar.label}>
            <text x={labelWidth - 8} y={y + 17} text-anchor="end" class="bar-label">
              {bar.label}
            </text>
            <rect x={labelWidth} y={y} width={Math.max(width, 1)} height={row - 8} class="bar" />
            <text x={labelWidth + width + 6} y={y + 17} class="bar-label">
              {bar.value}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
