import type { Problem } from "@platform/contracts/problem";
import { useEffect, useRef } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { StaffProblem } from "./StaffProblem.tsx";

/**
 * A form field as the API names it in a 422 (`/body/startsAt`, `/body/panel/0` is the panel's),
 * the input it is on the page, and what to tell the person (a catalogue message): the API's own
 * messages are schema text ("must match pattern …"), never shown.
 */
export type FieldRule = { path: string; id: string; message: string };

const names = (path: string, rule: FieldRule) =>
  path === rule.path || path.startsWith(`${rule.path}/`);

/** Each field the refusal names, once, in the form's order: [input id, message]. */
export function fieldErrors(problem: Problem | null, rules: FieldRule[]): Map<string, string> {
  const found = new Map<string, string>();
  if (!problem?.errors) return found;
  for (const rule of rules) {
    if (problem.errors.some((e) => names(e.path, rule))) found.set(rule.id, rule.message);
  }
  return found;
}

/**
 * The form's refusal: a 422 whose fields the form knows becomes GOV.UK's error summary (a
 * heading, then each problem as a link to its field; focused when it appears, so a keyboard or
 * screen-reader user lands on it); anything else is said in words (StaffProblem).
 */
export function FormProblem({
  problem,
  rules,
  testId,
  level = 3,
}: {
  problem: Problem | null;
  rules: FieldRule[];
  testId?: string;
  /** The summary's heading level: one below the heading the form sits under. */
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  const summary = useRef<HTMLDivElement>(null);
  const errors = fieldErrors(problem, rules);
  useEffect(() => {
    if (errors.size > 0) summary.current?.focus();
  }, [problem]);
  if (!problem) return null;
  if (errors.size === 0) return <StaffProblem problem={problem} testId={testId} />;
  return (
    <div
      class="error-summary"
      role="alert"
      tabIndex={-1}
      ref={summary}
      aria-labelledby={`${rules[0]?.id ?? "form"}-summary`}
      data-testid={testId}
    >
      <Heading id={`${rules[0]?.id ?? "form"}-summary`}>{t("decide.errors.title")}</Heading>
      <ul>
        {[...errors].map(([id, message]) => (
          <li key={id}>
            <a href={`#${id}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A field's refusal under its label, named `<id>-error` for the field's aria-describedby. */
export function FieldError({ id, errors }: { id: string; errors: Map<string, string> }) {
  const message = errors.get(id);
  if (!message) return null;
  return (
    <p class="field-error" id={`${id}-error`}>
      {message}
    </p>
  );
}
