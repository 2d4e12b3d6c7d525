import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, idInput, idParams, int, Timestamp } from "../../lib/schema.ts";
import { multiLineText, singleLineText } from "../../lib/text.ts";
import { ApplicationStatus, DecisionFields, REASON_KINDS, ReasonCode } from "../workflow/model.ts";

// Admins' decision: offer, conditional offer, waitlist or reject.

export const DECISIONS = ["offer", "conditional_offer", "waitlist", "reject"] as const;
export const Decision = enumOf(DECISIONS);
export type Decision = typeof Decision.static;

export const DecisionBody = t.Object(
  {
    decision: Decision,
    ...DecisionFields,
    reason: t.Optional(multiLineText({ maxLength: 2_000 })),
    reasonCode: t.Optional(ReasonCode),
    version: t.Optional(int({ minimum: 1, description: "The version you last read" })),
  },
  {
    examples: [
      {
        decision: "conditional_offer",
        conditions: ["Final grade of at least B in Mathematics"],
        respondBy: "2026-07-31T23:59:59Z",
      },
      { decision: "waitlist", waitlistPosition: 3 },
      { decision: "reject", reasonCode: "academic_requirements", reason: "Mathematics below B" },
    ],
  },
);
export type DecisionBody = typeof DecisionBody.static;

// The conditions of a conditional offer, each a record of its own.

export const CONDITION_STATUSES = ["pending", "met", "not_met", "waived"] as const;
export const ConditionStatus = enumOf(CONDITION_STATUSES, {
  description:
    "pending until staff settle it; met and waived count towards an unconditional offer; not_met ends the offer (conditions_not_met)",
});
export type ConditionStatus = typeof ConditionStatus.static;

export const Condition = t.Object({
  id: Id,
  position: int({ minimum: 1, description: "Its place in the offer's list" }),
  description: t.String(),
  status: ConditionStatus,
  dueAt: t.String({
    format: "date-time",
    description: "Still pending then: the application moves to conditions_not_met",
  }),
  evidenceDocumentId: t.Nullable(Id, { description: "A document of the same application" }),
  note: t.Nullable(t.String()),
  verifiedBy: t.Nullable(Id, { description: "The staff member who settled it (staff only)" }),
  verifiedAt: t.Nullable(Timestamp),
  createdAt: Timestamp,
});
export type Condition = typeof Condition.static;

export const ConditionList = t.Object({
  applicationId: Id,
  applicationStatus: ApplicationStatus,
  unconditionalAt: t.Nullable(Timestamp, {
    description: "When the last condition was met or waived: the offer became unconditional",
  }),
  conditions: t.Array(Condition),
});
export type ConditionList = typeof ConditionList.static;

export const ConditionUpdate = t.Object(
  {
    status: ConditionStatus,
    note: t.Optional(multiLineText({ maxLength: 2_000 })),
    evidenceDocumentId: t.Optional(
      idInput({ description: "A document uploaded to this application" }),
    ),
  },
  {
    examples: [
      { status: "met", note: "Transcript shows B in Mathematics", evidenceDocumentId: "0198…" },
      { status: "waived", note: "Equivalent qualification accepted" },
    ],
  },
);
export type ConditionUpdate = typeof ConditionUpdate.static;

export const ConditionParams = idParams("id", "conditionId");

export const EvidenceBody = t.Object(
  { documentId: idInput({ description: "A document uploaded to this application" }) },
  { examples: [{ documentId: "0198f2c4-…" }] },
);
export type EvidenceBody = typeof EvidenceBody.static;

// Deferring an accepted place to a later intake.

export const DEFERRAL_STATUSES = ["requested", "approved", "refused"] as const;

const IntakeRef = t.Object({ id: Id, term: t.String() });

export const Deferral = t.Object({
  id: Id,
  applicationId: Id,
  fromIntake: IntakeRef,
  toIntake: IntakeRef,
  status: enumOf(DEFERRAL_STATUSES, {
    description: "requested: waiting for staff; approved: the place moved; refused",
  }),
  reason: t.Nullable(t.String()),
  requestedAt: Timestamp,
  decidedAt: t.Nullable(Timestamp),
  decisionNote: t.Nullable(t.String()),
});
export type Deferral = typeof Deferral.static;

export const DeferralList = t.Object({
  results: t.Array(Deferral, { description: "Oldest first" }),
});
export type DeferralList = typeof DeferralList.static;

export const DeferralCreate = t.Object(
  {
    toIntakeId: idInput({
      description: "A later intake of the same program (its deadline after the current one's)",
    }),
    reason: t.Optional(multiLineText({ maxLength: 2_000 })),
  },
  { examples: [{ toIntakeId: "0198f2c4-…", reason: "Gap year: military service" }] },
);
export type DeferralCreate = typeof DeferralCreate.static;

export const DeferralDecision = t.Optional(
  t.Object({ note: t.Optional(multiLineText({ maxLength: 2_000 })) }),
);
export type DeferralDecision = typeof DeferralDecision.static;

export const DeferralParams = idParams("id", "deferralId");

export const DeferralStatus = enumOf(DEFERRAL_STATUSES);

/** Every application's requests, for the office's list (admins): who asked, on which program. */
export const StaffDeferralQuery = t.Object({
  ...PageQuery,
  status: t.Optional(DeferralStatus),
});
export type StaffDeferralQuery = typeof StaffDeferralQuery.static;

export const StaffDeferral = t.Object({
  ...Deferral.properties,
  applicant: t.Object({ id: Id, fullName: t.String() }),
  program: t.Object({ id: Id, code: t.String(), name: t.String() }),
});
export type StaffDeferral = typeof StaffDeferral.static;

export const StaffDeferralPage = Paginated(StaffDeferral, "Deferral requests, oldest first");

// The reasons to pick for a rejection, withdrawal or decline.

export const ReasonKind = enumOf(REASON_KINDS, {
  description:
    "rejection: an admin rejects; withdrawal: the applicant or an admin withdraws; decline: the applicant declines an offer",
});
export type ReasonKind = typeof ReasonKind.static;

export const Reason = t.Object({
  kind: ReasonKind,
  code: t.String(),
  label: t.String(),
  active: t.Boolean({
    description: "Inactive codes stay in the history but are refused on new moves",
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Reason = typeof Reason.static;

export const ReasonList = t.Object({ results: t.Array(Reason) });

const Label = singleLineText({
  minLength: 1,
  maxLength: 200,
  examples: ["Accepted a place elsewhere"],
});

export const ReasonCreate = t.Object(
  { kind: ReasonKind, code: ReasonCode, label: Label },
  { examples: [{ kind: "decline", code: "deferred_entry", label: "Wants to start a year later" }] },
);
export type ReasonCreate = typeof ReasonCreate.static;

export const ReasonUpdate = t.Object(
  { label: t.Optional(Label), active: t.Optional(t.Boolean()) },
  { minProperties: 1 },
);
export type ReasonUpdate = typeof ReasonUpdate.static;

export const ReasonQuery = t.Object({
  kind: t.Optional(ReasonKind),
  active: t.Optional(t.Boolean({ description: "Admins only; others always get the active ones" })),
});
export type ReasonQuery = typeof ReasonQuery.static;

export const ReasonParams = t.Object({ kind: ReasonKind, code: t.String({ maxLength: 40 }) });
