import type { SQL } from "bun";
import { t } from "elysia";
import type { Dialect } from "../../db/dialect.ts";
import { Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, int, Timestamp } from "../../lib/schema.ts";
import { singleLineText } from "../../lib/text.ts";
import { PersonalDetails, ROLES, type User } from "../users/model.ts";

/**
 * The application lifecycle's own shapes: an application and its status, the history of its
 * moves and what a decision carries. Every feature that moves or shows an application uses
 * these, so they live here rather than in any one feature.
 */
export const STATUSES = [
  "draft",
  "submitted",
  "under_review",
  "interviewing",
  "offered",
  "conditionally_offered",
  "waitlisted",
  "rejected",
  "accepted",
  "declined",
  "offer_expired",
  "enrolled",
  "conditions_not_met",
  "withdrawn",
] as const;
export const ApplicationStatus = enumOf(STATUSES);
export type ApplicationStatus = typeof ApplicationStatus.static;

/**
 * The notes the platform itself writes on moves (the history's `reason`), fixed English: a
 * client that shows the history in another language recognises them and says them its way.
 * `conditionNotMet` is followed by the condition's own text.
 */
export const SYSTEM_NOTES = {
  reviewerAssigned: "Reviewer assigned",
  offerNotAnswered: "Not answered before the deadline",
  conditionOverdue: "A condition was not met by its due date",
  conditionNotMet: "Condition not met: ",
} as const;

/** Who made a move: an account's role, or the system (offer expiry). */
export const ActorRole = enumOf([...ROLES, "system"], {
  description: "system: the platform itself, e.g. an offer that expired unanswered",
});
export type ActorRole = typeof ActorRole.static;

export const Offer = t.Object(
  {
    respondBy: t.String({ format: "date-time", description: "Accept or decline before this" }),
    conditions: t.Array(t.String(), { description: "Empty for an unconditional offer" }),
  },
  { description: "The offer made; kept after it is answered" },
);

export const FormFields = {
  personalStatement: t.String({ maxLength: 20_000 }),
  priorQualification: t.String({ maxLength: 200, examples: ["A-levels: A*AA"] }),
  priorInstitution: t.String({ maxLength: 200, examples: ["Springfield High School"] }),
  graduationYear: t.Nullable(int({ minimum: 1900, maximum: 2100, examples: [2025] })),
};

export const Application = t.Object({
  id: Id,
  status: ApplicationStatus,
  version: int({
    minimum: 1,
    description: "Bumped by every change; send it back (If-Match or `version`) to update safely",
  }),
  applicant: t.Object({ id: Id, email: t.String(), fullName: t.String() }),
  program: t.Object({ id: Id, code: t.String(), name: t.String() }),
  intake: t.Object({ id: Id, term: t.String(), deadline: Timestamp }),
  ...FormFields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  submittedAt: t.Nullable(Timestamp),
  offer: t.Nullable(Offer),
  waitlistPosition: t.Nullable(
    int({ minimum: 1, description: "1 is promoted first; set while waitlisted" }),
  ),
  applicantProfile: t.Nullable(PersonalDetails, {
    description:
      "The applicant's profile as the draft was created, taken again at submission; null when they had none",
  }),
});
export type Application = typeof Application.static;

export const ApplicationPage = Paginated(Application, "A page of applications");

/** One condition of a conditional offer as a decision names it: its text, or text and due date. */
export const ConditionInput = t.Union([
  singleLineText({ minLength: 1, maxLength: 500 }),
  t.Object({
    description: singleLineText({ minLength: 1, maxLength: 500 }),
    dueAt: t.Optional(
      t.String({ format: "date-time", description: "When it must be met (in the future)" }),
    ),
  }),
]);
export type ConditionInput = typeof ConditionInput.static;

/** Structured reason codes apply to these moves only, each from its own list. */
export const REASON_KINDS = ["rejection", "withdrawal", "decline"] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];
export const REASON_KIND_OF: Partial<Record<ApplicationStatus, ReasonKind>> = {
  rejected: "rejection",
  withdrawn: "withdrawal",
  declined: "decline",
};
export const ReasonCode = t.String({
  pattern: "^[a-z0-9_]{1,40}$",
  description:
    "Rejection, withdrawal and decline: a code from the configured list of that kind (GET /api/v1/reasons/), beside the free-text `reason`",
  examples: ["accepted_elsewhere"],
});

/** What a decision carries beside its status; each only where it applies (else 422). */
export const DecisionFields = {
  respondBy: t.Optional(
    t.String({
      format: "date-time",
      description:
        "Offers: the response deadline (default: the configured number of days from now)",
      examples: ["2026-07-31T23:59:59Z"],
    }),
  ),
  conditions: t.Optional(
    t.Array(ConditionInput, {
      minItems: 1,
      maxItems: 20,
      description:
        "Conditional offers: the conditions to meet (required there, refused elsewhere). Each is its text, or `{description, dueAt}` to give it its own due date (default: the configured number of days from the offer)",
      examples: [
        ["Final grade of at least B in Mathematics"],
        [{ description: "Proof of English (IELTS 6.5)", dueAt: "2026-08-31T23:59:59Z" }],
      ],
    }),
  ),
  waitlistPosition: t.Optional(
    int({
      minimum: 1,
      maximum: 1_000_000,
      description: "Waitlist: where to insert (default: at the end); those behind move down",
    }),
  ),
};
/** The decision fields of a request, all optional; each route says which apply. */
export const DecisionInput = t.Object(DecisionFields);
export type DecisionInput = typeof DecisionInput.static;

export const Transition = t.Object({
  id: Id,
  from: t.Nullable(ApplicationStatus, { description: "null for the creation of the draft" }),
  to: ApplicationStatus,
  actor: t.Object({
    id: t.Nullable(Id, { description: "Shown to staff, and to applicants for their own moves" }),
    role: ActorRole,
  }),
  reason: t.Nullable(t.String()),
  reasonCode: t.Nullable(t.String({ description: "The structured reason, when one was given" })),
  clientIp: t.Nullable(t.String({ description: "Staff only" })),
  at: Timestamp,
});
export type Transition = typeof Transition.static;

/** An intake's seats, from the running totals (docs/admissions.md, "Decisions"). */
export const Seats = t.Object({
  intakeId: Id,
  capacity: int({ minimum: 1 }),
  held: int({ minimum: 0, description: "Outstanding offers plus places taken" }),
  taken: int({ minimum: 0, description: "Accepted and enrolled" }),
  available: int({ minimum: 0, description: "Seats a new offer may take" }),
  waitlisted: int({ minimum: 0 }),
});
export type Seats = typeof Seats.static;

/** Every kind of staff (or system) action the audit log records, and data-rights requests. */
export const AUDIT_ACTIONS = [
  "application.transition",
  "application.reviewer_assigned",
  "application.reviewer_unassigned",
  "review.saved",
  "review.conflict_declared",
  "rubric.saved",
  "program.created",
  "program.updated",
  "program.deactivated",
  "program.reviewers_set",
  "intake.created",
  "intake.updated",
  "staff.created",
  "staff.updated",
  "staff.password_reset",
  "applications.exported",
  "document.reviewed",
  "payment.confirmed",
  "payment.failed",
  "payment.refunded",
  "fee.waived",
  "mfa.enabled",
  "mfa.disabled",
  "mfa.recovery_codes_regenerated",
  "data.exported",
  "data.erasure_requested",
  "data.erasure_cancelled",
  "data.erasure_rejected",
  "data.erasure_completed",
  "condition.updated",
  "application.conditions_met",
  "deferral.requested",
  "deferral.approved",
  "deferral.refused",
  "reason.created",
  "reason.updated",
  "intake.decisions_due_set",
  "program.review_settings_set",
  "review.extra_requested",
  "review.extra_flagged",
  "interview.created",
  "interview.invited",
  "interview.rescheduled",
  "interview.cancelled",
  "interview.scored",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.redelivered",
] as const;
export const AuditAction = enumOf(AUDIT_ACTIONS);
export type AuditAction = typeof AuditAction.static;

/** One audit log entry as an action writes it (who and when come from its origin). */
export type AuditEvent = {
  action: AuditAction;
  applicationId?: string | null;
  subject?: { type: string; id: string } | null;
  details?: Record<string, unknown>;
};

/** The platform itself, e.g. the job that expires unanswered offers. It has no account. */
export type SystemActor = { readonly id: null; readonly role: "system" };
export const SYSTEM_ACTOR: SystemActor = { id: null, role: "system" };
export type Actor = User | SystemActor;

/** Where a change came from, for the history and the audit log. */
export type Origin = { actor: Actor; clientIp: string | null };

/** The version a client expects, from If-Match (→ 412 when stale) or the body (→ 409). */
export type Precondition = { version: number; via: "if-match" | "body" };

/** How a move was asked for: the audit log tells a bulk change from a single one. */
export type MoveVia =
  | "transition"
  | "decision"
  | "bulk"
  | "promotion"
  | "assignment"
  | "expiry"
  | "conditions"
  | "interview";

export type MoveRequest = {
  to: ApplicationStatus;
  reason: string | null;
  /** A code from the reasons list of the move's kind (rejection, withdrawal, decline). */
  reasonCode?: string | null;
  preconditions: Precondition[];
  decision?: DecisionInput;
  via?: MoveVia;
  /** Groups the moves of one bulk request in the audit log. */
  batchId?: string;
};

/** A move as the effects see it, inside its transaction. */
export type Move = {
  tx: SQL;
  dialect: Dialect;
  origin: Origin;
  before: Application;
  to: ApplicationStatus;
  reason: string | null;
  reasonCode: string | null;
  decision: DecisionInput;
  via: MoveVia;
  batchId: string | null;
  at: string;
  nowMs: number;
};

/**
 * What other features do when an application moves, in the mover's transaction: `prepare`
 * may refuse the move (missing documents, a full intake) and returns columns to set with the
 * status (an offer's deadline); `settle` runs once the move is written (the waitlist closes
 * up, the applicant's email goes to the outbox, the audit log records it). All or nothing
 * with the move itself.
 */
export type TransitionEffects = {
  prepare(move: Move): Promise<Record<string, string | number | null>>;
  settle(move: Move, after: Application): Promise<void>;
};

export type MoveDeps = { dialect: Dialect; effects: TransitionEffects };
