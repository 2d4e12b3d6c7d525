import { HttpProblem, invalidField, type SharedStore } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toBool, toInt, toIsoOrNull } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import { sendPasswordResetLink } from "../account/service.ts";
import { filtersFor, needsScan, selectPage } from "../applications/service.ts";
import { endSignInsOf } from "../auth/service.ts";
import type { PasswordCost, User } from "../users/model.ts";
import { createUser, toUser, type UserRow } from "../users/service.ts";
import type { Application, MoveDeps, Origin } from "../workflow/model.ts";
import { decisionOf, moveApplication, recordAudit } from "../workflow/service.ts";
import { csvOf } from "./internal/export.ts";
import {
  countsByStatus,
  officeRows,
  pageOfQueue,
  totalOf,
  usesOfficeFilters,
} from "./internal/office-queue.ts";
import { reasonStatsIn } from "./internal/reason-stats.ts";
import { statsIn } from "./internal/stats.ts";
import type {
  BulkTransitionBody,
  ExportQuery,
  OfficeQueuePage,
  OfficeQueueQuery,
  ReasonStats,
  ReasonStatsQuery,
  Refusal,
  ReviewerPool,
  StaffCreate,
  StaffQuery,
  StaffUpdate,
  Stats,
  StatsQuery,
} from "./model.ts";

/*
 * The back office: staff accounts (created, listed, changed, their password reset), each
 * program's reviewer pool, and work on many applications at once (bulk moves, the CSV export,
 * the counts).
 */

export type StaffDeps = { db: Db; now: () => number; passwordCost: PasswordCost };
export type BulkDeps = { db: Db; now: () => number; move: MoveDeps };
export type StaffResetDeps = { db: Db; store: SharedStore; now: () => number; portalUrl: string };

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
        throw invalidField(
          `/body/reviewerIds/${index}`,
          "is not an active staff account",
          "notFound",
        );
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

/**
 * An admin makes a staff member choose a new password: a reset link (30 minutes) is emailed to
 * them, and every sign-in of theirs ends at once. Ending them is the point when the reason is
 * a lost laptop, a suspected compromise or a departure, and costs nothing when it is a
 * forgotten password (no sign-in to lose). The password itself keeps working until the link is
 * used: an admin who believes it leaked also deactivates the account (PATCH active: false).
 */
export async function resetStaffPassword(
  deps: StaffResetDeps,
  origin: Origin & { actor: User },
  id: string,
): Promise<string> {
  if (id === origin.actor.id) {
    throw problem("CANNOT_CHANGE_OWN_ACCOUNT", {
      detail: "Change your own password with POST /api/v1/account/password/",
    });
  }
  const nowMs = deps.now();
  const user = await deps.db.transaction(async (tx) => {
    const [row] = (await tx`SELECT * FROM users
      WHERE id = ${id} AND role IN ('reviewer', 'admin')`) as UserRow[];
    if (!row) throw notFound("Staff account");
    const user = toUser(row);
    if (!user.active) {
      throw new HttpProblem("CONFLICT", {
        detail: "The account is deactivated: reactivate it before resetting its password",
      });
    }
    await sendPasswordResetLink(tx, deps, user, "admin", nowMs);
    await recordAudit(
      tx,
      origin,
      {
        action: "staff.password_reset",
        subject: { type: "user", id },
        details: { email: user.email },
      },
      isoAt(nowMs),
    );
    return user;
  });
  const ended = await endSignInsOf(deps, id, null);
  return `A reset link was emailed to ${user.email}; ${ended} sign-in(s) ended`;
}

/**
 * Moves many applications in one transaction, all or none. Every move goes through the same
 * path as a single one (table, role, seats, waitlist, email, audit), so an offer to the last
 * seat counts against the next one in the same request. Refusals are collected, not stopped
 * at: if any application cannot move, everything is rolled back and 409 BULK_REFUSED lists
 * each refused application with its own code and reason.
 */
export function bulkTransition(
  deps: BulkDeps,
  origin: Origin,
  body: BulkTransitionBody,
): Promise<{
  batchId: string;
  moved: number;
  applications: Pick<Application, "id" | "status" | "version">[];
}> {
  const nowMs = deps.now();
  const batchId = newId();
  // One order for every bulk request: two overlapping batches lock in the same sequence.
  const ids = [...body.applicationIds].sort();
  return deps.db.transaction(async (tx) => {
    const moved: Pick<Application, "id" | "status" | "version">[] = [];
    const refusals: Refusal[] = [];
    for (const id of ids) {
      try {
        const application = await moveApplication(
          tx,
          deps.move,
          origin,
          id,
          {
            to: body.to,
            reason: body.reason ?? null,
            reasonCode: body.reasonCode ?? null,
            preconditions: [],
            decision: decisionOf(body),
            via: "bulk",
            batchId,
          },
          nowMs,
        );
        moved.push({ id, status: application.status, version: application.version });
      } catch (error) {
        if (!(error instanceof HttpProblem)) throw error;
        refusals.push({
          applicationId: id,
          status: error.status,
          code: error.code,
          detail: error.errors?.length
            ? error.errors.map((e) => `${e.path} ${e.message}`).join("; ")
            : error.message,
        });
      }
    }
    if (refusals.length > 0) {
      throw problem("BULK_REFUSED", {
        detail: `${refusals.length} of ${ids.length} applications cannot move to ${body.to}; nothing was changed`,
        extensions: { refusals },
      });
    }
    return { batchId, moved: moved.length, applications: moved };
  });
}

/**
 * The filtered applications as CSV, streamed (internal/export.ts). The export itself is
 * audited before the first byte.
 */
export async function exportApplications(
  db: Db,
  origin: Origin & { actor: User },
  query: ExportQuery,
  nowMs: number,
): Promise<ReadableStream<Uint8Array>> {
  const filters = filtersFor(origin.actor, query);
  await db.transaction((tx) =>
    recordAudit(
      tx,
      origin,
      { action: "applications.exported", details: { filters: { ...query } } },
      isoAt(nowMs),
    ),
  );
  return csvOf(db, filters, query);
}

/** The queue's sorts that the list answers from its ordered index ranges. */
const LIST_ORDERINGS: Partial<
  Record<NonNullable<OfficeQueueQuery["ordering"]>, "submittedAt" | "-submittedAt">
> = { submittedAt: "submittedAt", "-submittedAt": "-submittedAt" };

/**
 * The office's queue (admins): a page of applications with their score, reviewers, payment and
 * flags, and the counts per status. Sorted by submission and filtered as the list is, the page
 * comes from the list's own ordered index ranges; the office's filters and sorts add one query.
 */
export const officeQueue = (
  db: Db,
  viewer: User,
  query: OfficeQueueQuery,
  page: Page,
  requestUrl: string,
): Promise<OfficeQueuePage> =>
  db.run(async (sql) => {
    const { ordering, ...listQuery } = query;
    const filters = filtersFor(viewer, listQuery);
    const office = usesOfficeFilters(query);
    const listOrdering = LIST_ORDERINGS[ordering ?? "submittedAt"];
    const rows =
      !office && listOrdering
        ? await selectPage(
            sql,
            { ...filters, query: { ...filters.query, ordering: listOrdering } },
            page,
          )
        : await pageOfQueue(sql, filters, query, page);
    const counts = await countsByStatus(sql, filters, query, office || needsScan(listQuery));
    const results = await officeRows(sql, rows);
    return {
      ...toPage(requestUrl, page, totalOf(counts, filters.statuses), results),
      countsByStatus: counts,
    };
  });

/**
 * Counts by status, program and intake, from the running totals kept with every move: a few
 * hundred rows however many applications there are.
 */
export const applicationStats = (db: Db, query: StatsQuery): Promise<Stats> =>
  db.run((sql) => statsIn(sql, query));

/** Rejections, withdrawals and declines by reason code, from the history. */
export const reasonStats = (db: Db, query: ReasonStatsQuery): Promise<ReasonStats> =>
  db.run((sql) => reasonStatsIn(sql, query));
