import type { RunResult } from "@platform/contracts/run";

/** The sandbox refuses network, files, processes and the like with a SecurityError. */
const BLOCKED = /^SecurityError:/;

export function Result({ result }: { result: RunResult }) {
  return (
    <div class="results">
      <section aria-labelledby="output-heading">
        <h2 id="output-heading">Output</h2>
        <pre data-testid="output">{result.output}</pre>
      </section>
      <section aria-labelledby="error-heading">
        <h2 id="error-heading">Error</h2>
        <pre data-testid="error">{result.error ?? ""}</pre>
        {result.error !== null && BLOCKED.test(result.error) && (
          <p data-testid="blocked-explanation">
            The program used something the sandbox does not offer. Programs run without network
            access, files, environment variables, child processes or timers that outlive the run;
            they can compute and print with <code>console.log</code>, nothing more.
          </p>
        )}
      </section>
      <dl class="facts">
        <dt>Execution time</dt>
        <dd data-testid="execution-time">{result.executionTime.toFixed(2)} ms</dd>
        <dt>Timed out</dt>
        <dd data-testid="timed-out">{result.timedOut ? "yes" : "no"}</dd>
      </dl>
    </div>
  );
}
