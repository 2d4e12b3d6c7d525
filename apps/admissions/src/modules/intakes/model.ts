import { t } from "elysia";
import { PageQuery } from "../../lib/pagination.ts";
import { multiLineText } from "../../lib/text.ts";
import { DecisionFields } from "../workflow/model.ts";

export const PromoteBody = t.Optional(
  t.Object({
    respondBy: DecisionFields.respondBy,
    reason: t.Optional(multiLineText({ maxLength: 2_000 })),
  }),
);

export { Seats } from "../workflow/model.ts";

export const WaitlistQuery = t.Object(PageQuery);

export const DecisionsDue = t.Object({
  intakeId: t.String(),
  decisionsDueAt: t.Nullable(t.String({ format: "date-time" })),
});
export type DecisionsDue = typeof DecisionsDue.static;

export const DecisionsDueBody = t.Object(
  {
    decisionsDueAt: t.Nullable(
      t.String({
        format: "date-time",
        description: "In the future; null removes the date (and its reminders)",
      }),
    ),
  },
  { examples: [{ decisionsDueAt: "2026-03-31T17:00:00Z" }] },
);
export type DecisionsDueBody = typeof DecisionsDueBody.static;
