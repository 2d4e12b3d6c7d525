import type { Problem } from "@platform/contracts/problem";
import type { MessageKey } from "../i18n/index.ts";
import { t } from "../i18n/use.ts";

/** Codes the portal explains in the visitor's language; any other shows the API's own words. */
const KNOWN: Record<string, MessageKey> = {
  NETWORK_ERROR: "problem.NETWORK_ERROR",
  INVALID_CREDENTIALS: "problem.INVALID_CREDENTIALS",
  LOGIN_THROTTLED: "problem.LOGIN_THROTTLED",
  RATE_LIMITED: "problem.RATE_LIMITED",
  EMAIL_TAKEN: "problem.EMAIL_TAKEN",
  INVALID_ACCOUNT_TOKEN: "problem.INVALID_ACCOUNT_TOKEN",
  EMAIL_NOT_VERIFIED: "problem.EMAIL_NOT_VERIFIED",
  EMAIL_ALREADY_VERIFIED: "problem.EMAIL_ALREADY_VERIFIED",
  PASSWORD_INCORRECT: "problem.PASSWORD_INCORRECT",
  REQUIRED_DOCUMENTS_MISSING: "problem.REQUIRED_DOCUMENTS_MISSING",
  APPLICATION_FEE_UNPAID: "problem.APPLICATION_FEE_UNPAID",
  APPLICATION_EXISTS: "problem.APPLICATION_EXISTS",
  APPLICATION_DEADLINE_PASSED: "problem.APPLICATION_DEADLINE_PASSED",
  PAYMENT_PENDING: "problem.PAYMENT_PENDING",
  DOCUMENT_TYPE_NOT_ALLOWED: "problem.DOCUMENT_TYPE_NOT_ALLOWED",
  OFFER_EXPIRED: "problem.OFFER_EXPIRED",
  UNAUTHORIZED: "problem.UNAUTHORIZED",
  VALIDATION_FAILED: "problem.VALIDATION_FAILED",
  CONFIRMATION_FAILED: "problem.CONFIRMATION_FAILED",
  ERASURE_ALREADY_REQUESTED: "problem.ERASURE_ALREADY_REQUESTED",
  DATA_REQUEST_NOT_PENDING: "problem.DATA_REQUEST_NOT_PENDING",
  VERSION_CONFLICT: "problem.VERSION_CONFLICT",
  INVALID_REFERENCE_LINK: "problem.INVALID_REFERENCE_LINK",
  REFERENCES_CLOSED: "problem.REFERENCES_CLOSED",
  REFEREE_LIMIT_REACHED: "problem.REFEREE_LIMIT_REACHED",
  REFEREE_EXISTS: "problem.REFEREE_EXISTS",
  REFEREE_IS_APPLICANT: "problem.REFEREE_IS_APPLICANT",
  REFERENCE_RECEIVED: "problem.REFERENCE_RECEIVED",
};

/** The message for a problem, in the page's language when the portal knows its code. */
export const problemText = (problem: Problem) => {
  const key = KNOWN[problem.code];
  return key ? t(key) : `${problem.title}. ${problem.detail}`;
};

/** A refusal, announced (role="alert") where it happened; field errors go beside their fields. */
export function ProblemNotice({ problem, testId }: { problem: Problem; testId?: string }) {
  return (
    <div class="problem" role="alert" data-testid={testId}>
      <p>{problemText(problem)}</p>
    </div>
  );
}

/** The 422's message for one field (its JSON Pointer ends with the field's name). */
export const fieldError = (problem: Problem | null, name: string) =>
  problem?.errors?.find((e) => e.path === `/${name}` || e.path.endsWith(`/${name}`))?.message;
