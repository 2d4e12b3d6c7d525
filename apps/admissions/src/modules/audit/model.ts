import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { Id, idInput, int, Timestamp } from "../../lib/schema.ts";
import { ActorRole, AuditAction } from "../workflow/model.ts";

export const AuditEntry = t.Object({
  id: Id,
  actor: t.Object({
    id: t.Nullable(Id, { description: "null for the system" }),
    role: ActorRole,
    email: t.Nullable(t.String()),
    fullName: t.Nullable(t.String({ description: "null for the system" })),
  }),
  action: AuditAction,
  applicationId: t.Nullable(Id),
  application: t.Nullable(
    t.Object(
      {
        applicantName: t.String(),
        program: t.Object({ code: t.String(), name: t.String() }),
        term: t.String(),
      },
      { description: "Whose application, for reading the entry in words (null: none)" },
    ),
  ),
  subject: t.Nullable(
    t.Object(
      {
        type: t.String(),
        id: t.String(),
        name: t.Nullable(
          t.String({
            description:
              "A person's name (user), a programme's name (program), an intake's term, a payment's reference, a webhook's URL; null for other kinds or one since deleted",
          }),
        ),
      },
      { description: "What else was acted on" },
    ),
  ),
  details: t.Record(t.String(), t.Unknown(), { description: "What changed, per action" }),
  clientIp: t.Nullable(t.String()),
  at: Timestamp,
});
export type AuditEntry = typeof AuditEntry.static;

export const AuditQuery = t.Object({
  ...PageQuery,
  actorId: t.Optional(idInput()),
  action: t.Optional(AuditAction),
  applicationId: t.Optional(idInput()),
  from: t.Optional(t.String({ format: "date-time", description: "At or after" })),
  to: t.Optional(t.String({ format: "date-time", description: "Before" })),
});
export type AuditQuery = typeof AuditQuery.static;

export const AuditPage = Paginated(AuditEntry, "Audit log entries, newest first");

export const BreakReason = t.Union(
  [
    t.Literal("missing"),
    t.Literal("row_changed"),
    t.Literal("content_changed"),
    t.Literal("link_broken"),
    t.Literal("head_mismatch"),
    t.Literal("anchor_mismatch"),
    t.Literal("unchained"),
  ],
  { description: 'Why the chain breaks there (docs/admissions.md, "Tamper-evident audit log")' },
);
export type BreakReason = typeof BreakReason.static;

export const ChainQuery = t.Object({
  anchorSeq: t.Optional(
    t.Integer({ minimum: 1, description: "With anchorHash: a head saved from an earlier check" }),
  ),
  anchorHash: t.Optional(t.String({ pattern: "^[0-9a-f]{64}$" })),
});
export type ChainQuery = typeof ChainQuery.static;

export const ChainReport = t.Object({
  ok: t.Boolean(),
  checked: int({ description: "Entries walked" }),
  redacted: int({
    description: "Entries an erasure redacted: their details and address are not checked",
  }),
  head: t.Object(
    { seq: int(), hash: t.String() },
    {
      description:
        "The chain's head as it was when the walk began; keep it to anchor a later check",
    },
  ),
  firstBroken: t.Nullable(
    t.Object({
      id: t.Nullable(Id, { description: "null when entries after the last one were removed" }),
      seq: t.Nullable(int()),
      reason: BreakReason,
      detail: t.String(),
    }),
  ),
});
export type ChainReport = typeof ChainReport.static;
