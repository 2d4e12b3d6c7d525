import { t } from "elysia";
import { Id, Timestamp } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";

export const ConflictBody = t.Object(
  { reason: multiLineText({ minLength: 1, maxLength: 2_000 }) },
  { examples: [{ reason: "The applicant is a relative" }] },
);

export const Conflict = t.Object({
  applicationId: Id,
  reviewerId: Id,
  reason: t.String(),
  at: Timestamp,
});
