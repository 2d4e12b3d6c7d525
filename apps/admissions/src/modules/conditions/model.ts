import { t } from "elysia";
import { enumOf, Id, idInput, idParams, int, Timestamp } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";
import { ApplicationStatus } from "../workflow/model.ts";

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
