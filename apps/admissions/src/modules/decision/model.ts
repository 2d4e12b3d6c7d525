import { t } from "elysia";
import { enumOf, int } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";
import { DecisionFields, ReasonCode } from "../workflow/model.ts";

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
