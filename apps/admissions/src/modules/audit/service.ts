import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toInt, toIso } from "../../db/dialect.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import type { ActorRole, AuditAction, TransitionEffects } from "../workflow/model.ts";
import {
  type ChainedRow,
  chainBacklog,
  contentHash,
  GENESIS_HASH,
  recordAudit,
  rowHash,
} from "../workflow/service.ts";
import type { AuditEntry, AuditQuery, BreakReason, ChainQuery, ChainReport } from "./model.ts";

type AuditRow = {
  id: string;
  actor_id: string | null;
  actor_role: ActorRole;
  actor_email: string | null;
  actor_name: string | null;
  applicant_name: string | null;
  program_code: string | null;
  program_name: string | null;
  intake_term: string | null;
  subject_name: string | null;
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
  actor: {
    id: row.actor_id,
    role: row.actor_role,
    email: row.actor_email,
    fullName: row.actor_name,
  },
  action: row.action,
  applicationId: row.application_id,
  application:
    row.applicant_name === null
      ? null
      : {
          applicantName: row.applicant_name,
          program: { code: row.program_code ?? "", name: row.program_name ?? "" },
          term: row.intake_term ?? "",
        },
  subject:
    row.subject_type && row.subject_id
      ? { type: row.subject_type, id: row.subject_id, name: row.subject_name }
      : null,
  details: JSON.parse(row.details) as Record<string, unknown>,
  clientIp: row.client_ip,
  at: toIso(row.created_at),
});

/**
 * Chains the entries written before migration 0012, once (index.ts runs it at start-up, after
 * the migrations): their hashes need SHA-256, which SQLite's SQL does not have.
 */
export const chainAuditBacklog = (db: Db): Promise<number> => db.transaction(chainBacklog);

/** What the entry's subject is called, for the kinds a person names (null for the others). */
const subjectName = (sql: SQL) => sql`(CASE l.subject_type
  WHEN 'user' THEN (SELECT full_name FROM users WHERE id = l.subject_id)
  WHEN 'program' THEN (SELECT name FROM programs WHERE id = l.subject_id)
  WHEN 'intake' THEN (SELECT term FROM intakes WHERE id = l.subject_id)
  WHEN 'payment' THEN (SELECT reference FROM payments WHERE id = l.subject_id)
  WHEN 'webhook' THEN (SELECT url FROM webhook_endpoints WHERE id = l.subject_id)
  ELSE NULL END)`;

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
    // Names for reading the entries in words: the page's 20 rows, each join by primary key.
    const rows = (await sql`SELECT l.*, u.email AS actor_email, u.full_name AS actor_name,
        au.full_name AS applicant_name, ap.code AS program_code, ap.name AS program_name,
        ai.term AS intake_term, ${subjectName(sql)} AS subject_name
      FROM audit_log l
      LEFT JOIN users u ON u.id = l.actor_id
      LEFT JOIN applications a ON a.id = l.application_id
      LEFT JOIN users au ON au.id = a.applicant_id
      LEFT JOIN programs ap ON ap.id = a.program_id
      LEFT JOIN intakes ai ON ai.id = a.intake_id
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

/** Entries read per query: memory stays flat however long the log. */
export const VERIFY_BATCH = 1_000;

type Break = NonNullable<ChainReport["firstBroken"]>;
const broken = (row: ChainedRow | null, seq: number | null, reason: BreakReason, detail: string) =>
  ({ id: row?.id ?? null, seq, reason, detail }) satisfies Break;

/** What is wrong with one entry given the one before it, or null. */
function check(row: ChainedRow, seq: number, prevHash: string): Break | null {
  const actual = toInt(row.seq);
  if (actual !== seq) {
    return broken(row, actual, "missing", `entry ${seq} is missing: deleted, or moved`);
  }
  const content = row.content_hash ?? "";
  if (row.redacted_at === null || row.redacted_at === undefined) {
    if (contentHash(row.content_salt, row.details, row.client_ip) !== content) {
      return broken(row, seq, "content_changed", "details or client address changed");
    }
  }
  if (rowHash(row, seq, row.prev_hash ?? "", content) !== row.hash) {
    return broken(row, seq, "row_changed", "actor, action, subject, time or position changed");
  }
  if (row.prev_hash !== prevHash) {
    return broken(row, seq, "link_broken", "does not follow the entry before it");
  }
  return null;
}

/**
 * Walks the chain from the first entry to the head as it was when the walk began, a batch at a
 * time (each batch its own query, so SQLite's other users get their turn between them), and
 * stops at the first entry that does not hold.
 */
export async function verifyChain(db: Db, query: ChainQuery): Promise<ChainReport> {
  const [head] = (await db.run(
    (sql) => sql`SELECT seq, hash FROM audit_chain_head WHERE id = 1`,
  )) as {
    seq: unknown;
    hash: string;
  }[];
  const headSeq = toInt(head?.seq ?? 0);
  const report = (firstBroken: Break | null, checked: number, redacted: number): ChainReport => ({
    ok: firstBroken === null,
    checked,
    redacted,
    head: { seq: headSeq, hash: head?.hash ?? GENESIS_HASH },
    firstBroken,
  });
  let seq = 0;
  let prevHash = GENESIS_HASH;
  let redacted = 0;
  while (seq < headSeq) {
    const rows = (await db.run(
      (sql) => sql`SELECT * FROM audit_log WHERE seq > ${seq} AND seq <= ${headSeq}
        ORDER BY seq LIMIT ${VERIFY_BATCH}`,
    )) as ChainedRow[];
    if (rows.length === 0) break;
    for (const row of rows) {
      const fault = check(row, seq + 1, prevHash);
      if (fault) return report(fault, seq, redacted);
      if (row.redacted_at !== null && row.redacted_at !== undefined) redacted++;
      seq += 1;
      prevHash = row.hash ?? "";
      if (query.anchorSeq === seq && query.anchorHash && query.anchorHash !== prevHash) {
        return report(
          broken(row, seq, "anchor_mismatch", "differs from the saved head"),
          seq,
          redacted,
        );
      }
    }
  }
  if (seq !== headSeq || prevHash !== (head?.hash ?? GENESIS_HASH)) {
    const detail = `the chain ends at entry ${seq}, its head says ${headSeq}`;
    return report(broken(null, seq + 1, "head_mismatch", detail), seq, redacted);
  }
  if (query.anchorSeq !== undefined && query.anchorSeq > headSeq) {
    const detail = `the saved head's entry ${query.anchorSeq} is past the chain's end`;
    return report(broken(null, query.anchorSeq, "anchor_mismatch", detail), seq, redacted);
  }
  const [stray] = (await db.run(
    (sql) => sql`SELECT * FROM audit_log WHERE hash IS NULL
      AND id NOT IN (SELECT id FROM audit_chain_backlog) ORDER BY created_at, id LIMIT 1`,
  )) as ChainedRow[];
  if (stray) {
    return report(broken(stray, null, "unchained", "an entry outside the chain"), seq, redacted);
  }
  return report(null, seq, redacted);
}
