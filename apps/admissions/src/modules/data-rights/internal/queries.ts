import type { SQL } from "bun";
import { toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import type { Page } from "../../../lib/pagination.ts";
import { notFound } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import type { DataRequest, RequestKind, RequestStatus, RequestsQuery } from "../model.ts";

export type RequestRow = {
  id: string;
  user_id: string;
  kind: RequestKind;
  status: RequestStatus;
  reason: string | null;
  decision_note: string | null;
  created_at: unknown;
  decided_at: unknown;
  completed_at: unknown;
  retain_until: unknown;
  user_email: string;
  user_name: string;
};

const SELECT = (sql: SQL) => sql`SELECT r.*, u.email AS user_email, u.full_name AS user_name
  FROM data_requests r JOIN users u ON u.id = r.user_id`;

export const toRequest = (row: RequestRow): DataRequest => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  user: { id: row.user_id, email: row.user_email, fullName: row.user_name },
  reason: row.reason,
  decisionNote: row.decision_note,
  createdAt: toIso(row.created_at),
  decidedAt: toIsoOrNull(row.decided_at),
  completedAt: toIsoOrNull(row.completed_at),
  retainUntil: toIsoOrNull(row.retain_until),
});

/** A request the viewer may see: their own, any for admins; else 404 like a made-up id. */
export async function findRequest(sql: SQL, id: string, viewer: User): Promise<RequestRow> {
  const [row] = (await sql`${SELECT(sql)} WHERE r.id = ${id}`) as RequestRow[];
  if (!row || (row.user_id !== viewer.id && viewer.role !== "admin")) {
    throw notFound("Data-rights request");
  }
  return row;
}

/** Applicants see their own requests, admins everyone's. */
export async function requestsPage(sql: SQL, viewer: User, query: RequestsQuery, page: Page) {
  const userId = viewer.role === "admin" ? query.userId : viewer.id;
  const where = [
    userId ? sql`r.user_id = ${userId}` : sql`1 = 1`,
    query.status ? sql`r.status = ${query.status}` : sql`1 = 1`,
    query.kind ? sql`r.kind = ${query.kind}` : sql`1 = 1`,
  ].reduce((all, next) => sql`${all} AND ${next}`);
  const [total] = await sql`SELECT count(*) AS n FROM data_requests r WHERE ${where}`;
  const rows = (await sql`${SELECT(sql)} WHERE ${where}
    ORDER BY r.created_at DESC, r.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`) as RequestRow[];
  return { count: toInt(total?.n ?? 0), results: rows.map(toRequest) };
}

export async function insertRequest(
  tx: SQL,
  row: {
    id: string;
    userId: string;
    kind: RequestKind;
    status: RequestStatus;
    reason: string | null;
    at: string;
  },
) {
  await tx`INSERT INTO data_requests ${tx({
    id: row.id,
    user_id: row.userId,
    kind: row.kind,
    status: row.status,
    reason: row.reason,
    created_at: row.at,
    completed_at: row.status === "completed" ? row.at : null,
  })}`;
}

/**
 * Moves a pending request on; false when it is no longer pending (another admin, or the
 * applicant cancelling, got there first).
 */
export async function settleRequest(
  tx: SQL,
  id: string,
  change: { status: RequestStatus; decidedBy: string | null; note?: string | null; at: string },
) {
  const result = await tx`UPDATE data_requests SET ${tx({
    status: change.status,
    decided_by: change.decidedBy,
    decision_note: change.note ?? null,
    decided_at: change.at,
  })} WHERE id = ${id} AND status = 'pending'`;
  return result.count === 1;
}

export const reload = async (sql: SQL, id: string) =>
  toRequest(((await sql`${SELECT(sql)} WHERE r.id = ${id}`) as RequestRow[])[0] as RequestRow);
