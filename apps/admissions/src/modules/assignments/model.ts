import { t } from "elysia";
import { Id, idInput, idParams, Timestamp } from "../../lib/schema.ts";

export const AssignBody = t.Optional(
  t.Object(
    {
      reviewerId: t.Optional(
        idInput({
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

export const AssignmentParams = idParams("id", "reviewerId");
