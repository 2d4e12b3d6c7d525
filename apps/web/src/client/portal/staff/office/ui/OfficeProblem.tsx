import type { Problem } from "@platform/contracts/problem";
import { useEffect, useRef } from "preact/hooks";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatMoney, t } from "../../../i18n/use.ts";
import { problemText } from "../../../ui/ProblemNotice.tsx";

/** A form's fields by the name the API's 422 uses: the input's id and its error in words. */
export type FormFields = Record<string, { id: string; message: MessageKey }>;

/** The codes the office's pages meet, in the page's language (ProblemNotice knows the rest). */
const OFFICE_CODES: Record<string, MessageKey> = {
  FORBIDDEN: "office.problem.FORBIDDEN",
  NOT_FOUND: "office.problem.NOT_FOUND",
  PROGRAM_CODE_TAKEN: "office.problem.PROGRAM_CODE_TAKEN",
  INTAKE_TERM_TAKEN: "office.problem.INTAKE_TERM_TAKEN",
  RUBRIC_IN_USE: "office.problem.RUBRIC_IN_USE",
  REASON_CODE_TAKEN: "office.problem.REASON_CODE_TAKEN",
  ILLEGAL_PAYMENT_TRANSITION: "office.problem.ILLEGAL_PAYMENT_TRANSITION",
  REFUND_EXCEEDS_PAID: "office.problem.REFUND_EXCEEDS_PAID",
  FEE_ALREADY_PAID: "office.problem.FEE_ALREADY_PAID",
  FEE_WAIVED: "office.problem.FEE_WAIVED",
  FEE_NOT_REQUIRED: "office.problem.FEE_NOT_REQUIRED",
  PAYMENT_PENDING: "office.problem.PAYMENT_PENDING",
  PAYMENT_PROVIDER_ERROR: "office.problem.PAYMENT_PROVIDER_ERROR",
  REVIEWER_NOT_IN_POOL: "office.problem.REVIEWER_NOT_IN_POOL",
  REVIEWER_CONFLICTED: "office.problem.REVIEWER_CONFLICTED",
  ALREADY_ASSIGNED: "office.problem.ALREADY_ASSIGNED",
  NO_REVIEWER_AVAILABLE: "office.problem.NO_REVIEWER_AVAILABLE",
  ASSIGNMENT_CLOSED: "office.problem.ASSIGNMENT_CLOSED",
  BULK_REFUSED: "office.problem.BULK_REFUSED",
  MFA_ALREADY_ENABLED: "office.problem.MFA_ALREADY_ENABLED",
  MFA_ENROLMENT_NOT_STARTED: "office.problem.MFA_ENROLMENT_NOT_STARTED",
  MFA_NOT_ENABLED: "office.problem.MFA_NOT_ENABLED",
  MFA_INVALID: "office.problem.MFA_INVALID",
  CONFIRMATION_FAILED: "office.problem.CONFIRMATION_FAILED",
  WEBHOOK_DELIVERY_PENDING: "office.problem.WEBHOOK_DELIVERY_PENDING",
  CANNOT_CHANGE_OWN_ACCOUNT: "office.problem.CANNOT_CHANGE_OWN_ACCOUNT",
  DATA_REQUEST_NOT_PENDING: "problem.DATA_REQUEST_NOT_PENDING",
};

type Money = { amount: number; currency: string };

/** The message for a refusal; a short transfer says by how much. */
export function officeProblemText(problem: Problem): string {
  if (problem.code === "PAYMENT_SHORT") {
    const { shortBy, received } = problem as Problem & { shortBy?: Money; received?: Money };
    if (shortBy && received) {
      return t("office.problem.PAYMENT_SHORT", {
        received: formatMoney(received),
        short: formatMoney(shortBy),
      });
    }
  }
  const key = OFFICE_CODES[problem.code];
  return key ? t(key) : problemText(problem);
}

/** Which of the form's fields a 422 error names (its JSON Pointer ends with, or passes through, it). */
function fieldOf(path: string, fields: FormFields): string | undefined {
  return Object.keys(fields).find(
    (name) => path === `/${name}` || path.endsWith(`/${name}`) || path.includes(`/${name}/`),
  );
}

/** The fields a 422 names, each once, in the form's order. */
export function invalidFields(problem: Problem | null, fields: FormFields): string[] {
  if (!problem?.errors) return [];
  const named = new Set(problem.errors.map((e) => fieldOf(e.path, fields)));
  return Object.keys(fields).filter((name) => named.has(name));
}

/** The error in words beside a field, when the 422 names it. */
export function fieldMessage(problem: Problem | null, fields: FormFields, name: string) {
  const field = fields[name];
  return field && invalidFields(problem, fields).includes(name) ? t(field.message) : undefined;
}

/**
 * A refusal where it happened (role="alert"). A 422 with fields becomes the GOV.UK error summary:
 * focused when it appears, each field's error a link to the field.
 */
export function OfficeProblem({
  problem,
  fields,
  testId,
}: {
  problem: Problem;
  fields?: FormFields;
  testId?: string;
}) {
  const summary = useRef<HTMLDivElement>(null);
  const invalid = fields ? invalidFields(problem, fields) : [];
  useEffect(() => {
    if (invalid.length > 0) summary.current?.focus();
  }, [problem]);
  if (fields && invalid.length > 0) {
    return (
      <div
        class="problem error-summary"
        role="alert"
        tabIndex={-1}
        ref={summary}
        aria-labelledby="error-summary-title"
        data-testid={testId}
      >
        <h2 id="error-summary-title">{t("office.errors.title")}</h2>
        <ul>
          {invalid.map((name) => (
            <li key={name}>
              <a href={`#${fields[name]?.id}`}>{fieldMessage(problem, fields, name)}</a>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <div class="problem" role="alert" data-testid={testId}>
      <p>{officeProblemText(problem)}</p>
    </div>
  );
}
