import { t } from "elysia";
import { PageQuery } from "../../lib/pagination.ts";
import { DecisionFields } from "../workflow/model.ts";

export const PromoteBody = t.Optional(
  t.Object({
    respondBy: DecisionFields.respondBy,
    reason: t.Optional(t.String({ maxLength: 2_000 })),
  }),
);

export { Seats } from "../workflow/model.ts";

export const IntakeParams = t.Object({ id: t.String({ maxLength: 64 }) });
export const WaitlistQuery = t.Object(PageQuery);
