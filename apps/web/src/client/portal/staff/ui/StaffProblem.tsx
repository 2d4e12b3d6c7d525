import type { Problem } from "@platform/contracts/problem";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";

/**
 * The office's refusals in words, from the catalogue (staff-decide.*.ts): every code the
 * review, interview and offer routes answer. The portal's own ones (network, validation, rate
 * limit, session, version) are ProblemNotice's; anything else gets a sentence with its status
 * rather than the API's English text.
 */
const OFFICE_CODES = [
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT_OF_INTEREST",
  "NOT_ASSIGNED",
  "REVIEWS_CLOSED",
  "RUBRIC_MISSING",
  "REVIEWER_CONFLICTED",
  "INTERVIEW_CLASH",
  "INTERVIEW_NOT_OPEN",
  "INTERVIEW_CLOSED",
  "INTERVIEW_NOT_ALLOWED",
  "INTERVIEW_ALREADY_SCHEDULED",
  "INTERVIEW_NOT_HELD",
  "NOT_ON_PANEL",
  "CONDITIONS_CLOSED",
  "CONDITIONS_MET",
  "DEFERRAL_CLOSED",
  "DEFERRAL_NOT_ALLOWED",
  "DEFERRAL_CONFLICT",
  "NO_SEATS_AVAILABLE",
  "OFFER_LETTER_NOT_AVAILABLE",
  "ILLEGAL_TRANSITION",
] as const;
const PORTAL_CODES = new Set([
  "NETWORK_ERROR",
  "VALIDATION_FAILED",
  "RATE_LIMITED",
  "UNAUTHORIZED",
  "VERSION_CONFLICT",
]);

export const OFFICE_PROBLEM_KEYS: readonly MessageKey[] = OFFICE_CODES.map(
  (code) => `decide.problem.${code}` as MessageKey,
);

/** The sentence for a refusal, in the page's language. */
export function officeProblemText(problem: Problem): string {
  if ((OFFICE_CODES as readonly string[]).includes(problem.code)) {
    return t(`decide.problem.${problem.code}` as MessageKey);
  }
  return t("decide.problem.other", { status: problem.status });
}

/** A refusal, announced (role="alert") where it happened. */
export function StaffProblem({ problem, testId }: { problem: Problem; testId?: string }) {
  if (PORTAL_CODES.has(problem.code)) return <ProblemNotice problem={problem} testId={testId} />;
  return (
    <div class="problem" role="alert" data-testid={testId} data-code={problem.code}>
      <p>{officeProblemText(problem)}</p>
    </div>
  );
}
