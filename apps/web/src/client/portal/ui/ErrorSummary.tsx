import type { Problem } from "@platform/contracts/problem";
import { useEffect, useId, useRef } from "preact/hooks";
import { t } from "../i18n/use.ts";
import { errorsFor, fieldError, fieldMessage, problemText, wantsReference } from "./problems.ts";

/** A form's field as the summary links to it: the API's name, the input's id, its label. */
export type SummaryField = { name: string; id: string; label: string };

/**
 * GOV.UK's error summary: at the top of the form, focused when it appears so a screen reader
 * reads it and a keyboard user starts from it, a link to each field that needs correcting
 * (following it focuses the field), and the problem itself in words when no field is named.
 * A form saved as it is typed passes `focus={false}`: its summary appears while the person is
 * still typing, and taking the focus then would send their next keys nowhere (role="alert"
 * still has it read out).
 */
export function ErrorSummary({
  problem,
  fields = [],
  focus = true,
}: {
  problem: Problem;
  fields?: SummaryField[];
  focus?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [problem]);
  const named = fields.filter((field) => fieldError(problem, field.name) !== undefined);
  // Errors the form has no field for (a hidden value, a newer API): said, without a link.
  const known = new Set(named.flatMap((field) => errorsFor(problem, field.name)));
  const others = (problem.errors ?? []).filter((error) => !known.has(error));
  const focusField = (id: string) => (event: Event) => {
    event.preventDefault();
    const target = document.getElementById(id);
    target?.scrollIntoView({ block: "center" });
    target?.focus();
  };
  return (
    <div
      class="problem error-summary"
      role="alert"
      aria-labelledby={titleId}
      tabIndex={-1}
      ref={box}
      data-testid="error-summary"
    >
      <h2 id={titleId}>{t("problem.heading")}</h2>
      {named.length === 0 && <p>{problemText(problem)}</p>}
      {wantsReference(problem) && <p>{t("problem.quote", { requestId: problem.requestId })}</p>}
      {(named.length > 0 || others.length > 0) && (
        <ul>
          {named.map((field) => (
            <li key={field.id}>
              <a class="error-link" href={`#${field.id}`} onClick={focusField(field.id)}>
                {field.label}: {fieldError(problem, field.name)}
              </a>
            </li>
          ))}
          {others.map((error) => (
            <li key={error.path}>{fieldMessage(error)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
