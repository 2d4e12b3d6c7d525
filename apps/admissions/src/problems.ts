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
  // Account recovery and verification
  PASSWORD_INCORRECT: { status: 403, title: "Current password incorrect" },
  INVALID_ACCOUNT_TOKEN: { status: 400, title: "Invalid, expired or used link" },
  EMAIL_NOT_VERIFIED: { status: 403, title: "Email address not verified" },
  EMAIL_ALREADY_VERIFIED: { status: 409, title: "Email address already verified" },
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
  // Documents
  DOCUMENT_TOO_LARGE: { status: 413, title: "Document too large" },
  DOCUMENT_TYPE_NOT_ALLOWED: { status: 415, title: "Document type not allowed" },
  DOCUMENT_EMPTY: { status: 422, title: "Document empty" },
  DOCUMENT_TRUNCATED: { status: 422, title: "Document incomplete" },
  DOCUMENT_LIMIT_REACHED: { status: 409, title: "Too many documents" },
  DOCUMENTS_CLOSED: { status: 409, title: "Application closed to documents" },
  // Payments
  IDEMPOTENCY_KEY_MISSING: { status: 400, title: "Idempotency-Key required" },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: "Idempotency-Key reused" },
  FEE_NOT_REQUIRED: { status: 409, title: "No application fee" },
  FEE_ALREADY_PAID: { status: 409, title: "Application fee already paid" },
  FEE_WAIVED: { status: 409, title: "Application fee waived" },
  PAYMENT_PENDING: { status: 409, title: "A payment is already pending" },
  ILLEGAL_PAYMENT_TRANSITION: { status: 409, title: "Illegal payment status change" },
  REFUND_EXCEEDS_PAID: { status: 409, title: "Refund exceeds the amount paid" },
  RECEIPT_NOT_AVAILABLE: { status: 409, title: "No receipt for this payment" },
  OFFER_LETTER_NOT_AVAILABLE: { status: 409, title: "No offer letter for this application" },
  PAYMENT_PROVIDER_ERROR: { status: 502, title: "Payment provider error" },
  WEBHOOK_SIGNATURE_INVALID: { status: 400, title: "Invalid webhook signature" },
  // Decisions and capacity
  NO_SEATS_AVAILABLE: { status: 409, title: "No seats available" },
  CAPACITY_BELOW_TAKEN: { status: 409, title: "Capacity below the places taken" },
  OFFER_EXPIRED: { status: 409, title: "Offer deadline passed" },
  WAITLIST_EMPTY: { status: 409, title: "Nobody on the waitlist" },
  BULK_REFUSED: { status: 409, title: "Bulk change refused" },
  // Offer conditions, deferrals, reasons
  CONDITIONS_MET: { status: 409, title: "Offer conditions already met" },
  CONDITIONS_CLOSED: { status: 409, title: "Offer conditions no longer open" },
  DEFERRAL_NOT_ALLOWED: { status: 409, title: "Only an accepted place can be deferred" },
  DEFERRAL_PENDING: { status: 409, title: "A deferral request is already open" },
  DEFERRAL_CLOSED: { status: 409, title: "Deferral request already decided" },
  DEFERRAL_CONFLICT: { status: 409, title: "Already an application for that intake" },
  REASON_CODE_TAKEN: { status: 409, title: "Reason code already used" },
  // Review
  REVIEWER_NOT_IN_POOL: { status: 409, title: "Not a reviewer of this program" },
  REVIEWER_CONFLICTED: { status: 409, title: "Reviewer declared a conflict of interest" },
  NO_REVIEWER_AVAILABLE: { status: 409, title: "No reviewer available" },
  ALREADY_ASSIGNED: { status: 409, title: "Reviewer already assigned" },
  ASSIGNMENT_CLOSED: { status: 409, title: "Application not open to review assignments" },
  NOT_ASSIGNED: { status: 403, title: "Not assigned to this application" },
  CONFLICT_OF_INTEREST: { status: 403, title: "Conflict of interest declared" },
  RUBRIC_MISSING: { status: 409, title: "Program has no rubric" },
  RUBRIC_IN_USE: { status: 409, title: "Rubric already used by reviews" },
  REVIEWS_CLOSED: { status: 409, title: "Application not under review" },
  // Interviews
  INTERVIEW_CLASH: { status: 409, title: "Panel member already on an interview then" },
  INTERVIEW_NOT_OPEN: { status: 409, title: "Interview slot taken or cancelled" },
  INTERVIEW_NOT_ALLOWED: { status: 409, title: "Application not open to interviews" },
  INTERVIEW_ALREADY_SCHEDULED: { status: 409, title: "Application already has an interview" },
  INTERVIEW_CLOSED: { status: 409, title: "Interview cancelled or past" },
  INTERVIEW_STATE_CONFLICT: { status: 409, title: "Interview not in a state for that" },
  INTERVIEW_NOT_HELD: { status: 409, title: "Interview not held yet" },
  NOT_ON_PANEL: { status: 403, title: "Not on this interview's panel" },
  // Staff accounts
  CANNOT_CHANGE_OWN_ACCOUNT: { status: 409, title: "Cannot change your own account this way" },
  // Staff MFA
  MFA_REQUIRED: { status: 401, title: "MFA code required" },
  MFA_INVALID: { status: 401, title: "Invalid MFA code" },
  MFA_ENROLMENT_REQUIRED: { status: 403, title: "MFA enrolment required" },
  MFA_ALREADY_ENABLED: { status: 409, title: "MFA already enabled" },
  MFA_NOT_ENABLED: { status: 409, title: "MFA not enabled" },
  MFA_ENROLMENT_NOT_STARTED: { status: 409, title: "No MFA enrolment waiting" },
  CONFIRMATION_FAILED: { status: 403, title: "Password or code incorrect" },
  // References
  REFERENCES_CLOSED: { status: 409, title: "Application closed to references" },
  REFEREE_LIMIT_REACHED: { status: 409, title: "Too many referees" },
  REFEREE_EXISTS: { status: 409, title: "Referee already named" },
  REFEREE_IS_APPLICANT: { status: 422, title: "Referee is the applicant" },
  REFERENCE_RECEIVED: { status: 409, title: "Reference already received" },
  INVALID_REFERENCE_LINK: { status: 400, title: "Invalid, expired or used reference link" },
  // Webhooks
  WEBHOOK_DELIVERY_PENDING: { status: 409, title: "Webhook delivery still pending" },
  // Data rights
  ERASURE_ALREADY_REQUESTED: { status: 409, title: "Erasure already requested" },
  DATA_REQUEST_NOT_PENDING: { status: 409, title: "Request no longer pending" },
} as const satisfies Record<string, { status: number; title: string }>;

export type AdmissionsProblemCode = keyof typeof admissionsProblems;

type Init = ConstructorParameters<typeof HttpProblem>[1];

/** An HttpProblem with one of the codes above. */
export function problem(code: AdmissionsProblemCode, init: Init): HttpProblem {
  return new HttpProblem({ code, ...admissionsProblems[code] }, init);
}

export const notFound = (what: string) =>
  new HttpProblem("NOT_FOUND", { detail: `${what} not found` });
