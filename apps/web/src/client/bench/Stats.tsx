import type { BenchmarkResult } from "@platform/contracts/benchmark";
import { formatMicros, formatOps, opsPerSecond } from "./format.ts";
import { BENCH_TEXT as T } from "./text.ts";

/** The run's headline (time per iteration, operations per second), then the rest of its figures. */
export function Stats({ result }: { result: BenchmarkResult }) {
  const { perIteration, runtime, cpu } = result;
  const mean = result.executionTime / result.iterations;
  const ops = result.opsPerSecond ?? opsPerSecond(result.executionTime, result.iterations);
  return (
    <section class="bench-result" aria-label={T.headlineOf(result.type)} data-testid="bench-result">
      <div class="headline">
        <p>
          <span class="big" data-testid="per-iteration" data-us={mean}>
            {formatMicros(mean)}
          </span>{" "}
          {T.perIteration}
        </p>
        <p>
          <span class="big" data-testid="ops-per-second" data-ops={ops}>
            {formatOps(ops)}
          </span>{" "}
          {T.opsPerSecond}
        </p>
        <p class="hint headline-note">{T.headlineOf(result.type)}</p>
      </div>
      <dl class="facts">
        <dt>{T.total}</dt>
        <dd data-testid="execution-time" data-us={result.executionTime}>
          {formatMicros(result.executionTime)}
        </dd>
        <dt>{T.iterations}</dt>
        <dd data-testid="iterations">{result.iterations.toLocaleString("en")}</dd>
        {perIteration && (
          <>
            <dt>{T.spread}</dt>
            <dd data-testid="per-iteration-stats">
              {[perIteration.min, perIteration.median, perIteration.p99, perIteration.max]
                .map(formatMicros)
                .join(" / ")}
            </dd>
          </>
        )}
        {result.warmupIterations !== undefined && (
          <>
            <dt>{T.warmup}</dt>
            <dd>{result.warmupIterations.toLocaleString("en")}</dd>
          </>
        )}
        {result.attempts !== undefined && (
          <>
            <dt>{T.attempts}</dt>
            <dd>{result.attempts}</dd>
          </>
        )}
        <dt>{T.timestamp}</dt>
        <dd data-testid="timestamp">
          <time dateTime={result.timestamp}>{new Date(result.timestamp).toLocaleString("en")}</time>
        </dd>
        {runtime && (
          <>
            <dt>{T.runtime}</dt>
            <dd>{`${runtime.name} ${runtime.version} (${runtime.platform}/${runtime.arch})`}</dd>
          </>
        )}
        {cpu && (
          <>
            <dt>{T.cpu}</dt>
            <dd>{T.cores(cpu.model, cpu.cores)}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
