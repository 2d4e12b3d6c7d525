import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { Id, Timestamp } from "../../lib/schema.ts";
import { ActorRole, AuditAction } from "../workflow/model.ts";

export const AuditEntry = t.Object({
  id: Id,
  actor: t.Object({
    id: t.Nullable(Id, { description: "null for the system" }),
    role: ActorRole,
    email: t.Nullable(t.String()),
  }),
  action: AuditAction,
  applicationId: t.Nullable(Id),
  subject: t.Nullable(
    t.Object({ type: t.String(), id: t.String() }, { description: "What else was acted on" }),
  ),
  details: t.Record(t.String(), t.Unknown(), { description: "What changed, per action" }),
  clientIp: t.Nullable(t.String()),
  at: Timestamp,
});
export type AuditEntry = typeof AuditEntry.static;

export const AuditQuery = t.Object({
  ...PageQuery,
  actorId: t.Optional(t.String({ maxLength: 64 })),
  action: t.Optional(AuditAction),
  applicationId: t.Optional(t.String({ maxLength: 64 })),
  from: t.Optional(t.String({ format: "date-time", description: "At or after" })),
  to: t.Optional(t.String({ format: "date-time", description: "Before" })),
});
export type AuditQuery = typeof AuditQuery.static;

export const AuditPage = Paginated(AuditEntry, "Audit log entries, newest first");
