import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, idInput, int, Timestamp } from "../../lib/schema.ts";

export const OUTBOX_STATUSES = ["pending", "sent", "dead"] as const;

export const OutboxEmail = t.Object({
  id: Id,
  applicationId: t.Nullable(Id),
  event: t.String({ description: "The application status the email tells about" }),
  to: t.String(),
  subject: t.String(),
  status: enumOf(OUTBOX_STATUSES, {
    description: "pending: not delivered yet (retried with backoff); sent; dead: out of attempts",
  }),
  attempts: int({ minimum: 0 }),
  nextAttemptAt: t.Nullable(Timestamp),
  lastError: t.Nullable(t.String()),
  createdAt: Timestamp,
  sentAt: t.Nullable(Timestamp),
});
export type OutboxEmail = typeof OutboxEmail.static;

export const OutboxQuery = t.Object({
  ...PageQuery,
  status: t.Optional(enumOf(OUTBOX_STATUSES)),
  applicationId: t.Optional(idInput()),
});
export type OutboxQuery = typeof OutboxQuery.static;

export const OutboxPage = Paginated(OutboxEmail, "Emails in the outbox, newest first");
