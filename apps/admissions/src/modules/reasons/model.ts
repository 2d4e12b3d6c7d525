import { t } from "elysia";
import { enumOf, Timestamp } from "../../lib/schema.ts";
import { singleLineText } from "../../lib/text.ts";
import { REASON_KINDS, ReasonCode } from "../workflow/model.ts";

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
