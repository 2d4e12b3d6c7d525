import type { BenchmarkResult, BenchmarkType } from "@platform/contracts/benchmark";
import { BENCHMARK_TYPES } from "@platform/contracts/limits";
import { useState } from "preact/hooks";
import { type ApiFailure, api } from "../shared/api.ts";
import { ProblemMessage } from "../shared/Problem.tsx";
import type { RateLimitState } from "../shared/rate-limit.ts";
import { useCountdown } from "../shared/useCountdown.ts";
import { Chart, type Run } from "./Chart.tsx";
import { Stats } from "./Stats.tsx";

export function Bench() {
  const [type, setType] = useState<BenchmarkType>("json");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<BenchmarkResult | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [limit, setLimit] = useState<RateLimitState | null>(null);
  const [runs, setRuns] = useState<Run[]>([]);
  const wait = useCountdown(failure?.status === 429 ? failure.retryAfter : null, failure);

  const run = async () => {
    setBusy(true);
    const answer = await api.benchmark({ type });
    setBusy(false);
    if (answer.rateLimit) setLimit(answer.rateLimit);
    if (!answer.ok) {
      setFailure(answer);
      return;
    }
    const data = answer.data;
    setFailure(null);
    setResult(data);
    setRuns((all) => [
      ...all,
      {
        type: data.type,
        perIterationUs: data.executionTime / data.iterations,
        timestamp: data.timestamp,
      },
    ]);
  };

  return (
    <div>
      <div class="row">
        <label for="bench-type">Benchmark</label>
        <select
          id="bench-type"
          data-testid="bench-type"
          value={type}
          onChange={(e) => setType(e.currentTarget.value as BenchmarkType)}
        >
          {BENCHMARK_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="bench-run"
          onClick={() => void run()}
          disabled={busy || wait > 0}
        >
          {busy ? "Running…" : wait > 0 ? `Wait ${wait} s` : "Run"}
        </button>
      </div>
      <p data-testid="rate-limit" aria-live="polite">
        {limit
          ? `${limit.remaining}${limit.limit === null ? "" : ` of ${limit.limit}`} runs left; ` +
            `${limit.remaining === 0 ? "the next one returns" : "a run returns to the quota"} in ${limit.resetSeconds} s.`
          : "Runs are limited per minute; the quota shows after the first run."}
      </p>
      <div aria-live="polite">
        {failure && <ProblemMessage failure={failure} testId="bench-problem" />}
        {result && <Stats result={result} />}
      </div>
      {runs.length > 0 && <Chart runs={runs} />}
    </div>
  );
}
