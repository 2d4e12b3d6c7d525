import { HttpProblem } from "@platform/server";

/**
 * The admissions API's own machine codes, one table of code → status and title (the generic
 * ones such as NOT_FOUND or VALIDATION_FAILED come from @platform/server's catalog). Clients
 * switch on `code`; docs/admissions.md lists the same table.
 */
export const admissionsProblems = {
  // Authentication
  INVALID_CREDENTIALS: { status: 401, title: "Invalid credentials" },
  INVALID_TOKEN: { status: 401, title: "Invalid or expired token" },
  INVALID_SESSION: { status: 401, title: "Invalid or expired session" },
  INVALID_REFRESH_TOKEN: { status: 401, title: "Invalid refresh token" },
  REFRESH_TOKEN_REUSED: { status: 401, title: "Refresh token reused" },
  ACCOUNT_DISABLED: { status: 403, title: "Account disabled" },
  CSRF_TOKEN_MISSING: { status: 403, title: "CSRF token missing" },
  CSRF_TOKEN_INVALID: { status: 403, title: "CSRF token invalid" },
  LOGIN_THROTTLED: { status: 429, title: "Too many failed logins" },
  EMAIL_TAKEN: { status: 409, title: "Email already registered" },
  // Catalog
  PROGRAM_CODE_TAKEN: { status: 409, title: "Program code already used" },
  INTAKE_TERM_TAKEN: { status: 409, title: "Intake term already used" },
  // Applications
  APPLICATION_EXISTS: { status: 409, title: "Application already exists" },
  APPLICATION_NOT_EDITABLE: { status: 409, title: "Application not editable" },
  PROGRAM_INACTIVE: { status: 409, title: "Program not accepting applications" },
  INTAKE_NOT_OPEN: { status: 409, title: "Intake not open" },
  APPLICATION_DEADLINE_PASSED: { status: 409, title: "Application deadline passed" },
  REQUIRED_DOCUMENTS_MISSING: { status: 409, title: "Required documents missing" },
  APPLICATION_FEE_UNPAID: { status: 409, title: "Application fee unpaid" },
  ILLEGAL_TRANSITION: { status: 409, title: "Illegal status transition" },
  TRANSITION_FORBIDDEN: { status: 403, title: "Transition not allowed for this role" },
  VERSION_CONFLICT: { status: 409, title: "Version conflict" },
  PRECONDITION_FAILED: { status: 412, title: "Precondition failed" },
} as const satisfies Record<string, { status: number; title: string }>;

export type AdmissionsProblemCode = keyof typeof admissionsProblems;

type Init = ConstructorParameters<typeof HttpProblem>[1];

/** An HttpProblem with one of the codes above. */
export function problem(code: AdmissionsProblemCode, init: Init): HttpProblem {
  return new HttpProblem({ code, ...admissionsProblems[code] }, init);
}

export const notFound = (what: string) =>
  new HttpProblem("NOT_FOUND", { detail: `${what} not found` });
