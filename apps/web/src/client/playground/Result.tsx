import type { RunResult } from "@platform/contracts/run";
import { blockedCapability, PLAYGROUND_TEXT as T } from "./text.ts";

export function Result({ result }: { result: RunResult }) {
  const ms = result.executionTime.toFixed(2);
  const blocked = blockedCapability(result.error);
  return (
    <div>
      <p class="run-summary" data-testid="run-summary">
        {result.timedOut
          ? T.timedOutAfter(ms)
          : result.error !== null && result.executionTime === 0
            ? T.notRun
            : T.ranIn(ms)}
      </p>
      <div class="results">
        <section aria-labelledby="output-heading">
          <h2 id="output-heading">{T.outputHeading}</h2>
          <pre data-testid="output">{result.output}</pre>
          {result.output === "" && <p class="hint">{T.noOutput}</p>}
        </section>
        <section aria-labelledby="error-heading">
          <h2 id="error-heading">{T.errorHeading}</h2>
          <pre data-testid="error">{result.error ?? ""}</pre>
          {blocked && <p data-testid="blocked-explanation">{T.blocked(blocked)}</p>}
        </section>
      </div>
      <dl class="facts">
        <dt>{T.executionTime}</dt>
        <dd data-testid="execution-time">{ms} ms</dd>
        <dt>{T.timedOut}</dt>
        <dd data-testid="timed-out">{result.timedOut ? T.yes : T.no}</dd>
      </dl>
    </div>
  );
}
