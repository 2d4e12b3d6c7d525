import type { EditorView } from "@codemirror/view";
import { RUN_CODE_MAX, RUN_TIMEOUT_MAX_MS } from "@platform/contracts/limits";
import type { RunResult } from "@platform/contracts/run";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ApiFailure, api } from "../shared/api.ts";
import { ProblemMessage } from "../shared/Problem.tsx";
import { useCountdown } from "../shared/useCountdown.ts";
import { type CheckerState, createChecker } from "./checker.ts";
import { Diagnostics } from "./Diagnostics.tsx";
import { createEditor, moveTo, replaceDoc } from "./editor.ts";
import { EXAMPLES } from "./examples.ts";
import { Result } from "./Result.tsx";
import { SharePanel } from "./SharePanel.tsx";
import { readShared } from "./share.ts";
import { PLAYGROUND_TEXT as T } from "./text.ts";
import type { Diagnostic } from "./worker/protocol.ts";

const DEFAULT_TIMEOUT_MS = 1000;

/** A whole number of milliseconds the API accepts, or null. */
const parseTimeout = (text: string) => {
  const n = Number(text);
  return text.trim() !== "" && Number.isInteger(n) && n >= 1 && n <= RUN_TIMEOUT_MAX_MS ? n : null;
};

export function Playground() {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const checker = useMemo(createChecker, []);
  const [code, setCode] = useState<string>(EXAMPLES[0].code);
  const [checkerState, setCheckerState] = useState<CheckerState>("waiting");
  const [checked, setChecked] = useState<{ doc: string; diagnostics: Diagnostic[] | null }>({
    doc: "",
    diagnostics: null,
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [timeoutText, setTimeoutText] = useState(String(DEFAULT_TIMEOUT_MS));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RunResult | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const wait = useCountdown(failure?.status === 429 ? failure.retryAfter : null, failure);
  const timeout = parseTimeout(timeoutText);
  // The editor's keymap is made once; it reads the latest run through this ref.
  const runRef = useRef<() => void>(() => {});

  // Type errors never stop a run: the program goes to the runner as it is.
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
    checker.onState(setCheckerState);
    const editor = createEditor({
      parent: host.current,
      doc: EXAMPLES[0].code,
      checker,
      onChange: setCode,
      onRun: () => runRef.current(),
      onChecked: (doc, diagnostics) => setChecked({ doc, diagnostics }),
    });
    view.current = editor;
    // A shared link's program replaces the example, now and whenever the fragment changes.
    const restore = async () => {
      const shared = await readShared(location.hash);
      if (!shared) return;
      if (shared.ok) replaceDoc(editor, shared.code);
      setNotice(shared.ok ? T.sharedLoaded : T.sharedBroken);
    };
    void restore();
    addEventListener("hashchange", restore);
    return () => {
      removeEventListener("hashchange", restore);
      editor.destroy();
    };
  }, []);

  const over = code.length > RUN_CODE_MAX;
  return (
    <div class="playground">
      <div class="row">
        <label for="example">{T.example}</label>
        <select
          id="example"
          data-testid="examples"
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
        <SharePanel code={() => view.current?.state.doc.toString() ?? code} />
      </div>
      {notice && (
        <p class="notice" role="status" data-testid="share-notice">
          {notice}
        </p>
      )}
      <div class="editor" ref={host} />
      <p id="code-help" class="row">
        <span class={over ? "counter over" : "counter"} data-testid="char-count" aria-live="polite">
          {T.count(code.length, over)}
        </span>
        <span>{T.keys}</span>
      </p>
      <Diagnostics
        state={checkerState}
        checking={checked.doc !== code}
        diagnostics={checked.diagnostics}
        onPick={(position) => view.current && moveTo(view.current, position)}
      />
      <div class="row">
        <label for="timeout">{T.timeout}</label>
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
          {T.timeoutHelp}
        </span>
        <button
          type="button"
          data-testid="run"
          onClick={() => void run()}
          disabled={busy || timeout === null || wait > 0}
        >
          {busy ? T.running : wait > 0 ? T.wait(wait) : T.run}
        </button>
      </div>
      <div aria-live="polite">
        {failure && (
          <ProblemMessage
            failure={failure}
            testId="run-problem"
            fields={{ "/body/timeout": "timeout" }}
          />
        )}
        {result && <Result result={result} />}
        {!result && !failure && <p class="hint">{T.resultEmpty}</p>}
      </div>
    </div>
  );
}
