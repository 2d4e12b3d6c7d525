import type { Db } from "../../db/client.ts";
import { toInt, toIso } from "../../db/dialect.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import type { ActorRole, AuditAction, TransitionEffects } from "../workflow/model.ts";
import { chainBacklog, recordAudit } from "../workflow/service.ts";
import type { AuditEntry, AuditQuery } from "./model.ts";

type AuditRow = {
  id: string;
  actor_id: string | null;
  actor_role: ActorRole;
  actor_email: string | null;
  action: AuditAction;
  application_id: string | null;
  subject_type: string | null;
  subject_id: string | null;
  details: string;
  client_ip: string | null;
  created_at: unknown;
};

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  actor: { id: row.actor_id, role: row.actor_role, email: row.actor_email },
  action: row.action,
  applicationId: row.application_id,
  subject:
    row.subject_type && row.subject_id ? { type: row.subject_type, id: row.subject_id } : null,
  details: JSON.parse(row.details) as Record<string, unknown>,
  clientIp: row.client_ip,
  at: toIso(row.created_at),
});

export { VERIFY_BATCH, verifyChain } from "./internal/verify.ts";

/**
 * Chains the entries written before migration 0012, once (index.ts runs it at start-up, after
 * the migrations): their hashes need SHA-256, which SQLite's SQL does not have.
 */
export const chainAuditBacklog = (db: Db): Promise<number> => db.transaction(chainBacklog);

/** The log, newest first, filtered by actor, action, application and time. */
export function listAudit(
  db: Db,
  query: AuditQuery,
  page: Page,
  requestUrl: string,
): Promise<PageOf<AuditEntry>> {
  return db.run(async (sql) => {
    const where = [
      query.actorId ? sql`l.actor_id = ${query.actorId}` : sql`1 = 1`,
      query.action ? sql`l.action = ${query.action}` : sql`1 = 1`,
      query.applicationId ? sql`l.application_id = ${query.applicationId}` : sql`1 = 1`,
      query.from ? sql`l.created_at >= ${new Date(query.from).toISOString()}` : sql`1 = 1`,
      query.to ? sql`l.created_at < ${new Date(query.to).toISOString()}` : sql`1 = 1`,
    ].reduce((all, next) => sql`${all} AND ${next}`);
    const [total] = await sql`SELECT count(*) AS total FROM audit_log l WHERE ${where}`;
    const rows = (await sql`SELECT l.*, u.email AS actor_email FROM audit_log l
      LEFT JOIN users u ON u.id = l.actor_id
      WHERE ${where}
      ORDER BY l.created_at DESC, l.id DESC
      LIMIT ${page.limit} OFFSET ${page.offset}`) as AuditRow[];
    return toPage(requestUrl, page, toInt(total?.total ?? 0), rows.map(toEntry));
  });
}

/** Staff and system moves of an application go to the audit log with the move itself. */
export const auditEffects: TransitionEffects = {
  prepare: async () => ({}),
  async settle(move, after) {
    if (move.origin.actor.role === "applicant") return;
    await recordAudit(
      move.tx,
      move.origin,
      {
        action: "application.transition",
        applicationId: after.id,
        details: {
          from: move.before.status,
          to: after.status,
          reason: move.reason,
          ...(move.reasonCode ? { reasonCode: move.reasonCode } : {}),
          via: move.via,
          ...(move.batchId ? { batchId: move.batchId } : {}),
          ...(after.offer && after.status.includes("offered") ? { offer: after.offer } : {}),
          ...(after.waitlistPosition ? { waitlistPosition: after.waitlistPosition } : {}),
        },
      },
      move.at,
    );
  },
};
