import type { CheckerState } from "./checker.ts";
import { PLAYGROUND_TEXT as T } from "./text.ts";
import type { Diagnostic } from "./worker/protocol.ts";

/**
 * The compiler's type errors as a list under the editor (the same ones are underlined in it):
 * each names its line and column and moves the cursor there when pressed.
 */
export function Diagnostics({
  state,
  checking,
  diagnostics,
  onPick,
}: {
  state: CheckerState;
  checking: boolean;
  diagnostics: Diagnostic[] | null;
  onPick: (position: number) => void;
}) {
  const status =
    state === "failed"
      ? T.typesFailed
      : state === "waiting"
        ? T.typesWaiting
        : state === "loading" || diagnostics === null
          ? T.typesLoading
          : checking
            ? T.typesChecking
            : diagnostics.length === 0
              ? T.typesNone
              : T.typesCount(diagnostics.length);
  return (
    <section
      class="diagnostics"
      aria-labelledby="diagnostics-heading"
      data-testid="diagnostics"
      data-state={state === "ready" && diagnostics !== null && !checking ? "checked" : state}
      data-count={diagnostics?.length ?? ""}
    >
      <h2 id="diagnostics-heading">{T.typesHeading}</h2>
      <p role="status" class={diagnostics && diagnostics.length > 0 ? "counter over" : "counter"}>
        {status}
      </p>
      {state === "ready" && diagnostics && diagnostics.length > 0 && (
        <ul>
          {diagnostics.map((d) => (
            <li key={`${d.from}-${d.code}-${d.message}`} data-testid="diagnostic">
              <button type="button" class="link" onClick={() => onPick(d.from)}>
                {T.where(d.line, d.column)}
              </button>
              : {d.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
