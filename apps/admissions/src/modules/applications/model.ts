import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, int } from "../../lib/schema.ts";
import { ROLES } from "../users/model.ts";

export const STATUSES = [
  "draft",
  "submitted",
  "under_review",
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

const Id = t.String({ format: "uuid" });
const Timestamp = t.String({ format: "date-time" });

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

const formFields = {
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
  ...formFields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  submittedAt: t.Nullable(Timestamp),
  offer: t.Nullable(Offer),
  waitlistPosition: t.Nullable(
    int({ minimum: 1, description: "1 is promoted first; set while waitlisted" }),
  ),
});
export type Application = typeof Application.static;

export const ApplicationCreate = t.Object(
  {
    intakeId: t.String({ maxLength: 64 }),
    personalStatement: t.Optional(formFields.personalStatement),
    priorQualification: t.Optional(formFields.priorQualification),
    priorInstitution: t.Optional(formFields.priorInstitution),
    graduationYear: t.Optional(formFields.graduationYear),
  },
  {
    examples: [
      {
        intakeId: "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10",
        personalStatement: "I have wanted to study computing since…",
        priorQualification: "A-levels: A*AA",
      },
    ],
  },
);
export type ApplicationCreate = typeof ApplicationCreate.static;

const VersionField = int({
  minimum: 1,
  description: "The version you last read; a stale one is refused (409 VERSION_CONFLICT)",
});

export const ApplicationUpdate = t.Object(
  {
    personalStatement: t.Optional(formFields.personalStatement),
    priorQualification: t.Optional(formFields.priorQualification),
    priorInstitution: t.Optional(formFields.priorInstitution),
    graduationYear: t.Optional(formFields.graduationYear),
    version: t.Optional(VersionField),
  },
  { minProperties: 1 },
);
export type ApplicationUpdate = typeof ApplicationUpdate.static;

const Reason = t.String({ maxLength: 2_000 });

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
    t.Array(t.String({ minLength: 1, maxLength: 500 }), {
      minItems: 1,
      maxItems: 20,
      description: "Conditional offers: the conditions to meet (required there, refused elsewhere)",
      examples: [["Final grade of at least B in Mathematics"]],
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
export type DecisionInput = {
  respondBy?: string | undefined;
  conditions?: string[] | undefined;
  waitlistPosition?: number | undefined;
};

export const TransitionRequest = t.Object({
  to: ApplicationStatus,
  reason: t.Optional(Reason),
  version: t.Optional(VersionField),
  ...DecisionFields,
});
export type TransitionRequest = typeof TransitionRequest.static;

/** Body of submit and withdraw; optional. */
export const ActionBody = t.Optional(
  t.Object({ reason: t.Optional(Reason), version: t.Optional(VersionField) }),
);

export const Transition = t.Object({
  id: Id,
  from: t.Nullable(ApplicationStatus, { description: "null for the creation of the draft" }),
  to: ApplicationStatus,
  actor: t.Object({
    id: t.Nullable(Id, { description: "Shown to staff, and to applicants for their own moves" }),
    role: ActorRole,
  }),
  reason: t.Nullable(t.String()),
  clientIp: t.Nullable(t.String({ description: "Staff only" })),
  at: Timestamp,
});
export type Transition = typeof Transition.static;

export const APPLICATION_ORDERINGS = [
  "createdAt",
  "-createdAt",
  "updatedAt",
  "-updatedAt",
  "submittedAt",
  "-submittedAt",
] as const;

const STATUS_LIST = `^(${STATUSES.join("|")})(,(${STATUSES.join("|")}))*$`;

export const ApplicationListQuery = t.Object({
  ...PageQuery,
  status: t.Optional(
    t.String({
      pattern: STATUS_LIST,
      description: "One status or several, comma-separated",
      examples: ["submitted,under_review"],
    }),
  ),
  programId: t.Optional(t.String({ maxLength: 64 })),
  intakeId: t.Optional(t.String({ maxLength: 64 })),
  search: t.Optional(
    t.String({
      maxLength: 100,
      description: "Applicant name or email, program name or code (any case)",
    }),
  ),
  reviewerId: t.Optional(
    t.String({
      maxLength: 64,
      description: "Staff only: applications assigned to this reviewer (`me`: to you)",
      examples: ["me"],
    }),
  ),
  submittedFrom: t.Optional(
    t.String({ format: "date-time", description: "Submitted at or after" }),
  ),
  submittedTo: t.Optional(t.String({ format: "date-time", description: "Submitted before" })),
  ordering: t.Optional(enumOf(APPLICATION_ORDERINGS, { default: "-createdAt" })),
});
export type ApplicationListQuery = typeof ApplicationListQuery.static;

export const ApplicationPage = Paginated(Application, "A page of applications");
export const TransitionPage = Paginated(Transition, "An application's history, oldest first");
export const IdParams = t.Object({ id: t.String({ maxLength: 64 }) });
