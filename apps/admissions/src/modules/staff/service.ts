import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toBool, toInt, toIsoOrNull } from "../../db/dialect.ts";
import { isoAt } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import type { PasswordCost, User } from "../users/model.ts";
import { createUser, toUser, type UserRow } from "../users/service.ts";
import type { Origin } from "../workflow/model.ts";
import { recordAudit } from "../workflow/service.ts";
import type { ReviewerPool, StaffCreate, StaffQuery, StaffUpdate } from "./model.ts";

// Back-office work on many applications at once, in internal/.
export { type BulkDeps, bulkTransition } from "./internal/bulk.ts";
export { csvField, csvRow } from "./internal/csv.ts";
export { exportApplications } from "./internal/export.ts";
export { resetStaffPassword, type StaffResetDeps } from "./internal/password-reset.ts";
export { reasonStats } from "./internal/reason-stats.ts";
export { applicationStats } from "./internal/stats.ts";

export type StaffDeps = { db: Db; now: () => number; passwordCost: PasswordCost };

/** Admins create reviewer (or admin) accounts; registration only ever makes applicants. */
export const createStaff = (deps: StaffDeps, origin: Origin, body: StaffCreate) =>
  createUser(deps.db, body, deps.passwordCost, deps.now(), (tx, user) =>
    recordAudit(
      tx,
      origin,
      {
        action: "staff.created",
        subject: { type: "user", id: user.id },
        details: { email: user.email, role: user.role },
      },
      isoAt(deps.now()),
    ),
  );

const STAFF_COLUMNS = "id, email, full_name, role, active, created_at";

async function findStaff(sql: SQL, id: string): Promise<User> {
  const [row] = (await sql`SELECT * FROM users
    WHERE id = ${id} AND role IN ('reviewer', 'admin')`) as UserRow[];
  if (!row) throw notFound("Staff account");
  return toUser(row);
}

export function listStaff(
  deps: StaffDeps,
  query: StaffQuery,
  page: Page,
  requestUrl: string,
): Promise<PageOf<User>> {
  return deps.db.run(async (sql) => {
    const where = [
      query.role ? sql`role = ${query.role}` : sql`role IN ('reviewer', 'admin')`,
      query.active === undefined ? sql`1 = 1` : sql`active = ${query.active}`,
    ].reduce((all, next) => sql`${all} AND ${next}`);
    const [total] = await sql`SELECT count(*) AS total FROM users WHERE ${where}`;
    const rows = (await sql`SELECT ${sql.unsafe(STAFF_COLUMNS)} FROM users WHERE ${where}
      ORDER BY full_name, id LIMIT ${page.limit} OFFSET ${page.offset}`) as UserRow[];
    return toPage(requestUrl, page, toInt(total?.total ?? 0), rows.map(toUser));
  });
}

/** Renames or (de)activates a staff account; an admin cannot deactivate themselves. */
export function updateStaff(
  deps: StaffDeps,
  origin: Origin & { actor: User },
  id: string,
  patch: StaffUpdate,
): Promise<User> {
  if (patch.active === false && id === origin.actor.id) {
    throw problem("CANNOT_CHANGE_OWN_ACCOUNT", {
      detail: "Another admin must deactivate your account",
    });
  }
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    await findStaff(tx, id);
    const columns = {
      ...(patch.fullName !== undefined ? { full_name: patch.fullName.trim() } : {}),
      ...(patch.active !== undefined ? { active: patch.active } : {}),
      updated_at: at,
    };
    await tx`UPDATE users SET ${tx(columns)} WHERE id = ${id}`;
    await recordAudit(
      tx,
      origin,
      { action: "staff.updated", subject: { type: "user", id }, details: { ...patch } },
      at,
    );
    return findStaff(tx, id);
  });
}

type PoolRow = UserRow & { last_assigned_at: unknown };

async function poolOf(sql: SQL, programId: string) {
  const rows = (await sql`SELECT u.*, pr.last_assigned_at FROM program_reviewers pr
    JOIN users u ON u.id = pr.reviewer_id
    WHERE pr.program_id = ${programId} ORDER BY u.full_name, u.id`) as PoolRow[];
  return rows.map((row) => ({
    reviewer: toUser(row),
    lastAssignedAt: toIsoOrNull(row.last_assigned_at),
  }));
}

async function assertProgram(sql: SQL, programId: string): Promise<void> {
  const [program] = await sql`SELECT id FROM programs WHERE id = ${programId}`;
  if (!program) throw notFound("Program");
}

export const getPool = (deps: StaffDeps, programId: string) =>
  deps.db.run(async (sql) => {
    await assertProgram(sql, programId);
    return poolOf(sql, programId);
  });

/**
 * Replaces a program's reviewers: active staff accounts (422 naming any other id). Reviewers
 * who stay keep their place in the round-robin.
 */
export function setPool(deps: StaffDeps, origin: Origin, programId: string, body: ReviewerPool) {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    await assertProgram(tx, programId);
    for (const [index, id] of body.reviewerIds.entries()) {
      const [user] = await tx`SELECT role, active FROM users WHERE id = ${id}`;
      if (!user || user.role === "applicant" || !toBool(user.active)) {
        throw invalidField(`/body/reviewerIds/${index}`, "is not an active staff account");
      }
    }
    const current = (await poolOf(tx, programId)).map((member) => member.reviewer.id);
    const removed = current.filter((id) => !body.reviewerIds.includes(id));
    const added = body.reviewerIds.filter((id) => !current.includes(id));
    if (removed.length > 0) {
      await tx`DELETE FROM program_reviewers
        WHERE program_id = ${programId} AND reviewer_id IN ${tx(removed)}`;
    }
    for (const id of added) {
      await tx`INSERT INTO program_reviewers ${tx({
        program_id: programId,
        reviewer_id: id,
        last_assigned_at: null,
        created_at: at,
      })}`;
    }
    await recordAudit(
      tx,
      origin,
      {
        action: "program.reviewers_set",
        subject: { type: "program", id: programId },
        details: { added, removed },
      },
      at,
    );
    return poolOf(tx, programId);
  });
}
