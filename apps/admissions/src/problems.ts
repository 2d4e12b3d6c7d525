import { HttpProblem } from "@platform/server";

/**
 * The admissions API's own machine codes, one table of code → status, title and when it is
 * answered (the generic ones such as NOT_FOUND or VALIDATION_FAILED come from @platform/server's
 * catalog). Clients switch on `code`; docs/admissions/errors.md is generated from this table
 * (scripts/docs-tables.ts).
 */
export const admissionsProblems = {
  // Authentication
  INVALID_CREDENTIALS: {
    status: 401,
    title: "Invalid credentials",
    description: "Wrong email or password (an unknown email answers the same).",
  },
  INVALID_TOKEN: {
    status: 401,
    title: "Invalid or expired token",
    description: "An access token malformed, wrongly signed, expired, or its sign-in revoked.",
  },
  INVALID_SESSION: {
    status: 401,
    title: "Invalid or expired session",
    description: "A session cookie unknown, tampered with or expired.",
  },
  INVALID_REFRESH_TOKEN: {
    status: 401,
    title: "Invalid refresh token",
    description: "A refresh token unknown, expired or revoked.",
  },
  REFRESH_TOKEN_REUSED: {
    status: 401,
    title: "Refresh token reused",
    description: "A used refresh token presented again: the whole sign-in is revoked.",
  },
  ACCOUNT_DISABLED: {
    status: 403,
    title: "Account disabled",
    description: "The right password for a disabled account.",
  },
  CSRF_TOKEN_MISSING: {
    status: 403,
    title: "CSRF token missing",
    description: "A cookie-only request with an unsafe method and no `X-CSRF-Token`.",
  },
  CSRF_TOKEN_INVALID: {
    status: 403,
    title: "CSRF token invalid",
    description: "A cookie-only request with an unsafe method and a wrong `X-CSRF-Token`.",
  },
  LOGIN_THROTTLED: {
    status: 429,
    title: "Too many failed logins",
    description:
      "Too many failed logins for the account or the address (`Retry-After`), even with the right password.",
  },
  EMAIL_TAKEN: {
    status: 409,
    title: "Email already registered",
    description:
      "Confirming a new email another account has taken meanwhile; an admin creating a staff account with a taken email.",
  },
  // Account recovery and verification
  PASSWORD_INCORRECT: {
    status: 403,
    title: "Current password incorrect",
    description: "A password or email change with a wrong current password.",
  },
  INVALID_ACCOUNT_TOKEN: {
    status: 400,
    title: "Invalid, expired or used link",
    description:
      "An emailed account link unknown, expired, already used or of another kind (one answer for all).",
  },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    title: "Email address not verified",
    description:
      "Submitting an application, or naming a referee, before the applicant's email is verified.",
  },
  EMAIL_ALREADY_VERIFIED: {
    status: 409,
    title: "Email address already verified",
    description: "Asking for a verification link once the address is verified.",
  },
  // Catalog
  PROGRAM_CODE_TAKEN: {
    status: 409,
    title: "Program code already used",
    description: "A program code another program has.",
  },
  INTAKE_TERM_TAKEN: {
    status: 409,
    title: "Intake term already used",
    description: "An intake term the program already has.",
  },
  // Applications
  APPLICATION_EXISTS: {
    status: 409,
    title: "Application already exists",
    description: "A second application for the same intake.",
  },
  APPLICATION_NOT_EDITABLE: {
    status: 409,
    title: "Application not editable",
    description:
      "Changing an application (its form, documents, payments) that is no longer a draft.",
  },
  PROGRAM_INACTIVE: {
    status: 409,
    title: "Program not accepting applications",
    description: "Applying or submitting to a program that is not active.",
  },
  INTAKE_NOT_OPEN: {
    status: 409,
    title: "Intake not open",
    description: "Applying or submitting before the intake opens.",
  },
  APPLICATION_DEADLINE_PASSED: {
    status: 409,
    title: "Application deadline passed",
    description: "Applying or submitting after the intake's deadline.",
  },
  REQUIRED_DOCUMENTS_MISSING: {
    status: 409,
    title: "Required documents missing",
    description: "Submitting without every required document on file (`missing` lists the types).",
  },
  APPLICATION_FEE_UNPAID: {
    status: 409,
    title: "Application fee unpaid",
    description: "Submitting with the fee neither paid nor waived (`fee`).",
  },
  ILLEGAL_TRANSITION: {
    status: 409,
    title: "Illegal status transition",
    description: "A move the lifecycle table does not have (the problem lists the allowed ones).",
  },
  TRANSITION_FORBIDDEN: {
    status: 403,
    title: "Transition not allowed for this role",
    description: "A move the lifecycle table has, but not for this role.",
  },
  VERSION_CONFLICT: {
    status: 409,
    title: "Version conflict",
    description: "A stale `version` in the body, or a concurrent change won.",
  },
  PRECONDITION_FAILED: {
    status: 412,
    title: "Precondition failed",
    description: "A stale `If-Match`.",
  },
  // Documents
  DOCUMENT_TOO_LARGE: {
    status: 413,
    title: "Document too large",
    description: "A file past 10 MiB (reading stopped there).",
  },
  DOCUMENT_TYPE_NOT_ALLOWED: {
    status: 415,
    title: "Document type not allowed",
    description: "Not a PDF, JPEG or PNG by its bytes, or also another format (a polyglot).",
  },
  DOCUMENT_EMPTY: { status: 422, title: "Document empty", description: "A zero-byte file." },
  DOCUMENT_TRUNCATED: {
    status: 422,
    title: "Document incomplete",
    description: "A file with the right start but without its format's end marker.",
  },
  DOCUMENT_LIMIT_REACHED: {
    status: 409,
    title: "Too many documents",
    description:
      "An upload past the per-application cap (`ADMISSIONS_MAX_DOCUMENTS_PER_APPLICATION`).",
  },
  DOCUMENTS_CLOSED: {
    status: 409,
    title: "Application closed to documents",
    description: "An upload to a final application.",
  },
  // Payments
  IDEMPOTENCY_KEY_MISSING: {
    status: 400,
    title: "Idempotency-Key required",
    description: "Creating a payment without `Idempotency-Key`.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: "Idempotency-Key reused",
    description: "An `Idempotency-Key` already used for a different request.",
  },
  FEE_NOT_REQUIRED: {
    status: 409,
    title: "No application fee",
    description: "Paying or waiving a fee the program does not charge.",
  },
  FEE_ALREADY_PAID: {
    status: 409,
    title: "Application fee already paid",
    description: "Paying or waiving a fee already paid.",
  },
  FEE_WAIVED: {
    status: 409,
    title: "Application fee waived",
    description: "Paying or waiving a fee already waived.",
  },
  PAYMENT_PENDING: {
    status: 409,
    title: "A payment is already pending",
    description: "A payment is already in flight (`paymentId` names it).",
  },
  ILLEGAL_PAYMENT_TRANSITION: {
    status: 409,
    title: "Illegal payment status change",
    description:
      "A payment change its status does not allow, e.g. confirming one that is not a pending manual payment, or refunding one that did not succeed.",
  },
  PAYMENT_SHORT: {
    status: 409,
    title: "Less received than the fee",
    description:
      "Confirming a bank transfer with less than its amount (`expected`, `received`, `shortBy`): nothing changes; confirm once the rest has arrived, or record it as failed.",
  },
  REFUND_EXCEEDS_PAID: {
    status: 409,
    title: "Refund exceeds the amount paid",
    description: "A refund of more than is left to refund (`refundable`).",
  },
  RECEIPT_NOT_AVAILABLE: {
    status: 409,
    title: "No receipt for this payment",
    description: "The receipt of a payment that did not succeed.",
  },
  OFFER_LETTER_NOT_AVAILABLE: {
    status: 409,
    title: "No offer letter for this application",
    description: "The offer letter of an application that holds no offer.",
  },
  PAYMENT_PROVIDER_ERROR: {
    status: 502,
    title: "Payment provider error",
    description: "The provider (Stripe) failed or refused; nothing was lost: retry.",
  },
  WEBHOOK_SIGNATURE_INVALID: {
    status: 400,
    title: "Invalid webhook signature",
    description: "A missing, forged, tampered or stale `Stripe-Signature`.",
  },
  // Decisions and capacity
  NO_SEATS_AVAILABLE: {
    status: 409,
    title: "No seats available",
    description:
      "An offer with every seat held, or an acceptance with every place taken (`seats`).",
  },
  CAPACITY_BELOW_TAKEN: {
    status: 409,
    title: "Capacity below the places taken",
    description: "Lowering an intake's capacity below its accepted and enrolled places.",
  },
  OFFER_EXPIRED: {
    status: 409,
    title: "Offer deadline passed",
    description: "Accepting after `offer.respondBy`.",
  },
  WAITLIST_EMPTY: {
    status: 409,
    title: "Nobody on the waitlist",
    description: "Promoting from an empty waitlist.",
  },
  BULK_REFUSED: {
    status: 409,
    title: "Bulk change refused",
    description: "A bulk change with refused moves (`refusals`); nothing changed.",
  },
  // Offer conditions, deferrals, reasons
  CONDITIONS_MET: {
    status: 409,
    title: "Offer conditions already met",
    description: "Ending an offer for its conditions after they were all met or waived.",
  },
  CONDITIONS_CLOSED: {
    status: 409,
    title: "Offer conditions no longer open",
    description: "Settling a condition once the offer is unconditional or no longer stands.",
  },
  CONDITION_SETTLED: {
    status: 409,
    title: "Condition already settled",
    description:
      "Evidence for a condition the office has already marked met, not met or waived (it is only taken while the condition is pending).",
  },
  DEFERRAL_NOT_ALLOWED: {
    status: 409,
    title: "Only an accepted place can be deferred",
    description: "Deferring a place that is not (or no longer) an accepted one.",
  },
  DEFERRAL_PENDING: {
    status: 409,
    title: "A deferral request is already open",
    description: "A second deferral request while one waits.",
  },
  DEFERRAL_CLOSED: {
    status: 409,
    title: "Deferral request already decided",
    description: "Approving or refusing a deferral already decided.",
  },
  DEFERRAL_CONFLICT: {
    status: 409,
    title: "Already an application for that intake",
    description: "Deferring into an intake the applicant already has an application for.",
  },
  REASON_CODE_TAKEN: {
    status: 409,
    title: "Reason code already used",
    description: "Adding a reason code its kind already has (deactivated ones included).",
  },
  // Review
  REVIEWER_NOT_IN_POOL: {
    status: 409,
    title: "Not a reviewer of this program",
    description: "Assigning a reviewer who is not an active member of the program's pool.",
  },
  REVIEWER_CONFLICTED: {
    status: 409,
    title: "Reviewer declared a conflict of interest",
    description:
      "Assigning a reviewer, or inviting to an interview with a panel member, who declared a conflict of interest with the application.",
  },
  NO_REVIEWER_AVAILABLE: {
    status: 409,
    title: "No reviewer available",
    description: "A round-robin assignment with nobody eligible in the pool.",
  },
  ALREADY_ASSIGNED: {
    status: 409,
    title: "Reviewer already assigned",
    description: "Assigning a reviewer already assigned.",
  },
  ASSIGNMENT_CLOSED: {
    status: 409,
    title: "Application not open to review assignments",
    description: "Assigning to an application that is not submitted or under review.",
  },
  NOT_ASSIGNED: {
    status: 403,
    title: "Not assigned to this application",
    description: "Reviewing an application not assigned to you.",
  },
  CONFLICT_OF_INTEREST: {
    status: 403,
    title: "Conflict of interest declared",
    description: "Reading the reviews after declaring a conflict of interest.",
  },
  RUBRIC_MISSING: {
    status: 409,
    title: "Program has no rubric",
    description: "Reviewing (or calibrating) a program without a rubric.",
  },
  RUBRIC_IN_USE: {
    status: 409,
    title: "Rubric already used by reviews",
    description: "Changing a rubric an application of the program has been scored against.",
  },
  REVIEWS_CLOSED: {
    status: 409,
    title: "Application not under review",
    description: "Reviewing an application that is not under review.",
  },
  // Interviews
  INTERVIEW_CLASH: {
    status: 409,
    title: "Panel member already on an interview then",
    description: "A panel member already sits on an overlapping interview (`clashes`).",
  },
  INTERVIEW_NOT_OPEN: {
    status: 409,
    title: "Interview slot taken or cancelled",
    description: "Inviting to a slot already taken or cancelled.",
  },
  INTERVIEW_NOT_ALLOWED: {
    status: 409,
    title: "Application not open to interviews",
    description: "Inviting an application that is not `under_review` or `interviewing`.",
  },
  INTERVIEW_ALREADY_SCHEDULED: {
    status: 409,
    title: "Application already has an interview",
    description: "Inviting an application that already has a live interview.",
  },
  INTERVIEW_CLOSED: {
    status: 409,
    title: "Interview cancelled or past",
    description: "Changing an interview that is cancelled or already started.",
  },
  INTERVIEW_STATE_CONFLICT: {
    status: 409,
    title: "Interview not in a state for that",
    description: "Confirming, or asking again, after asking for another time.",
  },
  INTERVIEW_NOT_HELD: {
    status: 409,
    title: "Interview not held yet",
    description: "Scoring an interview before it starts (or with nobody invited).",
  },
  NOT_ON_PANEL: {
    status: 403,
    title: "Not on this interview's panel",
    description: "Scoring an interview whose panel you are not on.",
  },
  // Staff accounts
  CANNOT_CHANGE_OWN_ACCOUNT: {
    status: 409,
    title: "Cannot change your own account this way",
    description: "An admin deactivating themselves, or sending themselves a staff password reset.",
  },
  // Staff MFA
  MFA_REQUIRED: {
    status: 401,
    title: "MFA code required",
    description:
      "The right password, MFA on, and no `otp` or `recoveryCode` sent (not counted as a failure).",
  },
  MFA_INVALID: {
    status: 401,
    title: "Invalid MFA code",
    description:
      "The right password and a wrong, stale or used code (counted in the login throttle).",
  },
  MFA_ENROLMENT_REQUIRED: {
    status: 403,
    title: "MFA enrolment required",
    description: "An admin without MFA while `ADMISSIONS_ADMIN_MFA_REQUIRED` is on.",
  },
  MFA_ALREADY_ENABLED: {
    status: 409,
    title: "MFA already enabled",
    description: "Enrolling with MFA already on.",
  },
  MFA_NOT_ENABLED: {
    status: 409,
    title: "MFA not enabled",
    description: "Disabling MFA, or asking for new recovery codes, with it off.",
  },
  MFA_ENROLMENT_NOT_STARTED: {
    status: 409,
    title: "No MFA enrolment waiting",
    description: "Confirming with no enrolment waiting (or it expired after 15 minutes).",
  },
  CONFIRMATION_FAILED: {
    status: 403,
    title: "Password or code incorrect",
    description: "A re-entered password or code is wrong (MFA routes, erasure request).",
  },
  // References
  REFERENCES_CLOSED: {
    status: 409,
    title: "Application closed to references",
    description: "Changing referees past `submitted`; a referee link of a final application.",
  },
  REFEREE_LIMIT_REACHED: { status: 409, title: "Too many referees", description: "A 6th referee." },
  REFEREE_EXISTS: {
    status: 409,
    title: "Referee already named",
    description: "A referee whose mailbox the application already names.",
  },
  REFEREE_IS_APPLICANT: {
    status: 422,
    title: "Referee is the applicant",
    description: "A referee address that reaches the applicant (`ada+ref@` for `ada@`).",
  },
  REFERENCE_RECEIVED: {
    status: 409,
    title: "Reference already received",
    description: "Removing a referee whose reference has arrived.",
  },
  INVALID_REFERENCE_LINK: {
    status: 400,
    title: "Invalid, expired or used reference link",
    description:
      "A referee link unknown, expired, replaced, removed or already used (one answer for all).",
  },
  // Webhooks
  WEBHOOK_DELIVERY_PENDING: {
    status: 409,
    title: "Webhook delivery still pending",
    description:
      "Redelivering a webhook delivery that is still pending (it is retried on its own).",
  },
  // Data rights
  ERASURE_ALREADY_REQUESTED: {
    status: 409,
    title: "Erasure already requested",
    description: "An erasure request of the account is already pending.",
  },
  DATA_REQUEST_NOT_PENDING: {
    status: 409,
    title: "Request no longer pending",
    description: "Approving, rejecting or cancelling a data request already decided.",
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type AdmissionsProblemCode = keyof typeof admissionsProblems;

type Init = ConstructorParameters<typeof HttpProblem>[1];

/** An HttpProblem with one of the codes above. */
export function problem(code: AdmissionsProblemCode, init: Init): HttpProblem {
  return new HttpProblem({ code, ...admissionsProblems[code] }, init);
}

export const notFound = (what: string) =>
  new HttpProblem("NOT_FOUND", { detail: `${what} not found` });
