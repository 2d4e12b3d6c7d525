import type { EditorView } from "@codemirror/view";
import { RUN_CODE_MAX, RUN_TIMEOUT_MAX_MS } from "@platform/contracts/limits";
import type { RunResult } from "@platform/contracts/run";
import { useEffect, useRef, useState } from "preact/hooks";
import { type ApiFailure, api } from "../shared/api.ts";
import { ProblemMessage } from "../shared/Problem.tsx";
import { useCountdown } from "../shared/useCountdown.ts";
import { createEditor, replaceDoc } from "./editor.ts";
import { EXAMPLES } from "./examples.ts";
import { Result } from "./Result.tsx";

const DEFAULT_TIMEOUT_MS = 1000;

/** A whole number of milliseconds the API accepts, or null. */
const parseTimeout = (text: string) => {
  const n = Number(text);
  return text.trim() !== "" && Number.isInteger(n) && n >= 1 && n <= RUN_TIMEOUT_MAX_MS ? n : null;
};

export function Playground() {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const [code, setCode] = useState<string>(EXAMPLES[0].code);
  const [timeoutText, setTimeoutText] = useState(String(DEFAULT_TIMEOUT_MS));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RunResult | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const wait = useCountdown(failure?.status === 429 ? failure.retryAfter : null, failure);
  const timeout = parseTimeout(timeoutText);
  // The editor's keymap is made once; it reads the latest run through this ref.
  const runRef = useRef<() => void>(() => {});

  const run = async () => {
    if (busy || timeout === null || !view.current) return;
    setBusy(true);
    const answer = await api.run({ code: view.current.state.doc.toString(), timeout });
    setBusy(false);
    if (answer.ok) {
      setResult(answer.data);
      setFailure(null);
    } else {
      setResult(null);
      setFailure(answer);
    }
  };
  runRef.current = () => void run();

  useEffect(() => {
    if (!host.current) return;
    view.current = createEditor({
      parent: host.current,
      doc: EXAMPLES[0].code,
      onChange: setCode,
      onRun: () => runRef.current(),
    });
    return () => view.current?.destroy();
  }, []);

  const over = code.length > RUN_CODE_MAX;
  return (
    <div>
      <div class="row">
        <label for="example">Example</label>
        <select
          id="example"
          onChange={(e) => {
            const example = EXAMPLES[Number(e.currentTarget.value)];
            if (example && view.current) replaceDoc(view.current, example.code);
          }}
        >
          {EXAMPLES.map((example, i) => (
            <option key={example.name} value={i}>
              {example.name}
            </option>
          ))}
        </select>
      </div>
      <div class="editor" ref={host} />
      <p id="code-help" class="row">
        <span class={over ? "counter over" : "counter"} data-testid="char-count" aria-live="polite">
          {code.length} / {RUN_CODE_MAX} characters{over ? " (too long to run)" : ""}
        </span>
        <span>Ctrl+Enter (⌘+Enter on a Mac) runs; Tab leaves the editor.</span>
      </p>
      <div class="row">
        <label for="timeout">Timeout (ms)</label>
        <input
          id="timeout"
          data-testid="timeout"
          type="number"
          min={1}
          max={RUN_TIMEOUT_MAX_MS}
          step={1}
          value={timeoutText}
          onInput={(e) => setTimeoutText(e.currentTarget.value)}
          aria-invalid={timeout === null ? "true" : undefined}
          aria-describedby="timeout-help"
        />
        <span id="timeout-help" class={timeout === null ? "counter over" : "counter"}>
          A whole number from 1 to {RUN_TIMEOUT_MAX_MS}.
        </span>
        <button
          type="button"
          data-testid="run"
          onClick={() => void run()}
          disabled={busy || timeout === null || wait > 0}
        >
          {busy ? "Running…" : wait > 0 ? `Wait ${wait} s` : "Run"}
        </button>
      </div>
      <div aria-live="polite">
        {failure && <ProblemMessage failure={failure} testId="run-problem" />}
        {result && <Result result={result} />}
      </div>
    </div>
  );
}
