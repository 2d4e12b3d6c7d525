import { t } from "elysia";
import { Id, Timestamp } from "../../lib/schema.ts";

export const AssignBody = t.Optional(
  t.Object(
    {
      reviewerId: t.Optional(
        t.String({
          maxLength: 64,
          description: "Omit for round-robin among the program's reviewers",
        }),
      ),
    },
    { examples: [{}, { reviewerId: "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10" }] },
  ),
);

export const Assigned = t.Object({
  reviewerId: Id,
  assignedAt: Timestamp,
});

export const ApplicationParams = t.Object({ id: t.String({ maxLength: 64 }) });
export const AssignmentParams = t.Object({
  id: t.String({ maxLength: 64 }),
  reviewerId: t.String({ maxLength: 64 }),
});
