import type { BenchmarkResult, BenchmarkType } from "@platform/contracts/benchmark";
import { BENCHMARK_TYPES } from "@platform/contracts/limits";
import { useState } from "preact/hooks";
import { type ApiFailure, api } from "../shared/api.ts";
import { ProblemMessage } from "../shared/Problem.tsx";
import type { RateLimitState } from "../shared/rate-limit.ts";
import { useCountdown } from "../shared/useCountdown.ts";
import { Chart, type Run } from "./Chart.tsx";
import { Compare } from "./Compare.tsx";
import { Quota } from "./Quota.tsx";
import { Stats } from "./Stats.tsx";
import { BENCH_TEXT as T } from "./text.ts";
import { WORKLOADS } from "./workloads.ts";

export function Bench() {
  const [type, setType] = useState<BenchmarkType>("json");
  const [busy, setBusy] = useState<BenchmarkType | null>(null);
  const [result, setResult] = useState<BenchmarkResult | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [limit, setLimit] = useState<RateLimitState | null>(null);
  const [runs, setRuns] = useState<Run[]>([]);
  const refused = useCountdown(failure?.status === 429 ? failure.retryAfter : null, failure);
  // At 0 runs left, Run waits for the quota's own countdown (RateLimit's t), not for a refusal.
  const empty = useCountdown(limit?.remaining === 0 ? limit.resetSeconds : null, limit);
  const wait = Math.max(refused, empty);

  const run = async () => {
    setBusy(type);
    const answer = await api.benchmark({ type });
    setBusy(null);
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
    <div class="bench">
      <div class="row">
        <label for="bench-type">{T.workload}</label>
        <select
          id="bench-type"
          data-testid="bench-type"
          value={type}
          onChange={(e) => setType(e.currentTarget.value as BenchmarkType)}
          aria-describedby="bench-type-summary"
        >
          {BENCHMARK_TYPES.map((t) => (
            <option key={t} value={t}>
              {`${t}: ${WORKLOADS[t].title}`}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="bench-run"
          onClick={() => void run()}
          disabled={busy !== null || wait > 0}
        >
          {busy ? T.running : wait > 0 ? T.wait(wait) : T.run}
        </button>
      </div>
      <p id="bench-type-summary" class="hint" data-testid="bench-type-summary">
        {WORKLOADS[type].summary} <a href={`#workload-${type}`}>{T.source}</a>
      </p>
      <Quota limit={limit} wait={empty} />
      <div aria-live="polite" aria-busy={busy !== null}>
        {busy && (
          <p class="notice" data-testid="bench-running">
            {T.runningNote(busy)}
          </p>
        )}
        {failure && <ProblemMessage failure={failure} testId="bench-problem" />}
        {result && <Stats result={result} />}
        {!result && !busy && !failure && <p data-testid="bench-empty">{T.empty}</p>}
      </div>
      {runs.length > 0 && <Chart runs={runs} />}
      {runs.length > 0 && <Compare runs={runs} />}
    </div>
  );
}
