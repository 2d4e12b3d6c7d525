import type { BenchmarkResult } from "@platform/contracts/benchmark";

const us = (n: number) => `${n.toLocaleString("en", { maximumFractionDigits: 3 })} µs`;

/** The contract's fields, the derived per-iteration time, and the additive fields when sent. */
export function Stats({ result }: { result: BenchmarkResult }) {
  const { perIteration, runtime, cpu } = result;
  return (
    <dl class="facts" data-testid="bench-result">
      <dt>Type</dt>
      <dd>{result.type}</dd>
      <dt>Execution time</dt>
      <dd data-testid="execution-time">{us(result.executionTime)}</dd>
      <dt>Iterations</dt>
      <dd data-testid="iterations">{result.iterations.toLocaleString("en")}</dd>
      <dt>Per iteration</dt>
      <dd data-testid="per-iteration">{us(result.executionTime / result.iterations)}</dd>
      <dt>Timestamp</dt>
      <dd data-testid="timestamp">
        <time dateTime={result.timestamp}>{new Date(result.timestamp).toLocaleString("en")}</time>
      </dd>
      {perIteration && (
        <>
          <dt>Min / median / p99 / max</dt>
          <dd data-testid="per-iteration-stats">
            {[perIteration.min, perIteration.median, perIteration.p99, perIteration.max]
              .map(us)
              .join(" / ")}
          </dd>
        </>
      )}
      {result.opsPerSecond !== undefined && (
        <>
          <dt>Operations per second</dt>
          <dd>{Math.round(result.opsPerSecond).toLocaleString("en")}</dd>
        </>
      )}
      {result.warmupIterations !== undefined && (
        <>
          <dt>Warm-up iterations</dt>
          <dd>{result.warmupIterations.toLocaleString("en")}</dd>
        </>
      )}
      {result.attempts !== undefined && (
        <>
          <dt>Attempts</dt>
          <dd>{result.attempts}</dd>
        </>
      )}
      {runtime && (
        <>
          <dt>Runtime</dt>
          <dd>{`${runtime.name} ${runtime.version} (${runtime.platform}/${runtime.arch})`}</dd>
        </>
      )}
      {cpu && (
        <>
          <dt>CPU</dt>
          <dd>{`${cpu.model}, ${cpu.cores} cores`}</dd>
        </>
      )}
    </dl>
  );
}
