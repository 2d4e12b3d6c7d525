import { t } from "elysia";
import { enumOf, Id, idInput, idParams, Timestamp } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";

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
