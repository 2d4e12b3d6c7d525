import { HttpProblem } from "@platform/server";
import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import { type Page, type PageOf, toPage } from "../../../lib/pagination.ts";
import { containsPattern } from "../../../lib/search.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { ApplicationStatus, Transition } from "../../workflow/model.ts";
import {
  type ApplicationRow,
  isBlindable,
  isBlindFor,
  redactTransition,
  selectApplications,
  type TransitionRow,
  toTransition,
} from "../../workflow/service.ts";
import type { ApplicationListQuery } from "../model.ts";

type Ordering = NonNullable<ApplicationListQuery["ordering"]>;
type Fragment = SQL.Query<unknown>;

/**
 * Whitelisted ORDER BY clauses, for the applications table (`a`) and for the merged rows of
 * several per-status reads (`merged`); the client picks a key, never SQL. Ties break on id
 * (UUIDv7, so creation order). Never-submitted drafts sort last either way (the two databases
 * would otherwise disagree on where NULL goes).
 */
const ORDER_BY: Record<Ordering, { a: (sql: SQL) => Fragment; merged: (sql: SQL) => Fragment }> = {
  createdAt: {
    a: (sql) => sql`a.created_at ASC, a.id ASC`,
    merged: (sql) => sql`merged.created_at ASC, merged.id ASC`,
  },
  "-createdAt": {
    a: (sql) => sql`a.created_at DESC, a.id DESC`,
    merged: (sql) => sql`merged.created_at DESC, merged.id DESC`,
  },
  updatedAt: {
    a: (sql) => sql`a.updated_at ASC, a.id ASC`,
    merged: (sql) => sql`merged.updated_at ASC, merged.id ASC`,
  },
  "-updatedAt": {
    a: (sql) => sql`a.updated_at DESC, a.id DESC`,
    merged: (sql) => sql`merged.updated_at DESC, merged.id DESC`,
  },
  submittedAt: {
    a: (sql) => sql`a.submitted_at ASC NULLS LAST, a.id ASC`,
    merged: (sql) => sql`merged.submitted_at ASC NULLS LAST, merged.id ASC`,
  },
  "-submittedAt": {
    a: (sql) => sql`a.submitted_at DESC NULLS LAST, a.id DESC`,
    merged: (sql) => sql`merged.submitted_at DESC NULLS LAST, merged.id DESC`,
  },
};

export type Filters = {
  viewer: User;
  staff: boolean;
  statuses: ApplicationStatus[] | undefined;
  query: Omit<ApplicationListQuery, "limit" | "offset" | "ordering"> & {
    ordering?: ApplicationListQuery["ordering"];
  };
};

/** The list's filters as the viewer may use them (403 for an applicant's `reviewerId`). */
export function filtersFor(viewer: User, query: Filters["query"]): Filters {
  const staff = isStaff(viewer.role);
  if (query.reviewerId !== undefined && !staff) {
    throw new HttpProblem("FORBIDDEN", { detail: "Only staff filter by reviewer" });
  }
  const statuses = query.status
    ? ([...new Set(query.status.split(","))] as ApplicationStatus[])
    : undefined;
  return {
    viewer,
    staff,
    statuses,
    query: { ...query, reviewerId: query.reviewerId === "me" ? viewer.id : query.reviewerId },
  };
}

/** Filters the running totals cannot answer: their counts scan the matching rows. */
export const needsScan = (q: Filters["query"]) =>
  Boolean(q.search || q.reviewerId || q.submittedFrom || q.submittedTo);

export function whereOf(sql: SQL, f: Filters, statuses = f.statuses): Fragment {
  const conditions = [
    f.staff ? sql`1 = 1` : sql`a.applicant_id = ${f.viewer.id}`,
    statuses ? sql`a.status IN ${sql(statuses)}` : sql`1 = 1`,
    f.query.programId ? sql`a.program_id = ${f.query.programId}` : sql`1 = 1`,
    f.query.intakeId ? sql`a.intake_id = ${f.query.intakeId}` : sql`1 = 1`,
  ];
  if (f.query.reviewerId) {
    conditions.push(sql`EXISTS (SELECT 1 FROM review_assignments ra
      WHERE ra.application_id = a.id AND ra.reviewer_id = ${f.query.reviewerId})`);
  }
  if (f.query.submittedFrom) {
    conditions.push(sql`a.submitted_at >= ${new Date(f.query.submittedFrom).toISOString()}`);
  }
  if (f.query.submittedTo) {
    conditions.push(sql`a.submitted_at < ${new Date(f.query.submittedTo).toISOString()}`);
  }
  if (f.query.search) {
    const pattern = containsPattern(f.query.search);
    // A reviewer's search must not find blind programs' applicants by name or email: the
    // matches alone would tell who applied.
    const person = sql`(lower(u.full_name) LIKE ${pattern} ESCAPE '\\'
      OR lower(u.email) LIKE ${pattern} ESCAPE '\\')`;
    const byPerson = isBlindable(f.viewer) ? sql`(NOT p.blind_review AND ${person})` : person;
    conditions.push(sql`(${byPerson}
      OR lower(p.name) LIKE ${pattern} ESCAPE '\\'
      OR lower(p.code) LIKE ${pattern} ESCAPE '\\')`);
  }
  return conditions.reduce((all, next) => sql`${all} AND ${next}`);
}

/** Ids and sort keys of the matching applications; joins users and programs only to search. */
function matchingIds(sql: SQL, f: Filters, statuses = f.statuses): Fragment {
  const keys = sql`a.id, a.created_at, a.updated_at, a.submitted_at`;
  return f.query.search
    ? sql`SELECT ${keys} FROM applications a
        JOIN users u ON u.id = a.applicant_id
        JOIN programs p ON p.id = a.program_id
        WHERE ${whereOf(sql, f, statuses)}`
    : sql`SELECT ${keys} FROM applications a WHERE ${whereOf(sql, f, statuses)}`;
}

/**
 * One page of rows, in two steps: first the page's ids (an index range), then the full rows
 * for those ids only, so rows skipped by the offset are never joined. With several statuses,
 * an `IN` list cannot be read in order from one index range and the database would sort every
 * match; instead each status is read as its own ordered range, cut at offset + limit, and the
 * few keys merged. The work follows the page depth, not the number of applications.
 */
export async function selectPage(sql: SQL, f: Filters, page: Page): Promise<ApplicationRow[]> {
  const order = ORDER_BY[f.query.ordering ?? "-createdAt"];
  let ids: Fragment;
  if (!f.statuses || f.statuses.length < 2) {
    ids = sql`${matchingIds(sql, f)}
      ORDER BY ${order.a(sql)} LIMIT ${page.limit} OFFSET ${page.offset}`;
  } else {
    const depth = page.offset + page.limit;
    const ranges = f.statuses.map(
      (status) => sql`SELECT * FROM (${matchingIds(sql, f, [status])}
        ORDER BY ${order.a(sql)} LIMIT ${depth}) AS range_of_status`,
    );
    const union = ranges.reduce((all, next) => sql`${all} UNION ALL ${next}`);
    ids = sql`SELECT merged.id FROM (${union}) AS merged
      ORDER BY ${order.merged(sql)} LIMIT ${page.limit} OFFSET ${page.offset}`;
  }
  return sql`${selectApplications(sql)} JOIN (${ids}) AS page_ids ON page_ids.id = a.id
    ORDER BY ${order.a(sql)}`;
}

export async function countMatching(sql: SQL, where: Fragment): Promise<number> {
  const [row] = await sql`SELECT count(*) AS total FROM applications a
    JOIN users u ON u.id = a.applicant_id
    JOIN programs p ON p.id = a.program_id
    WHERE ${where}`;
  return toInt(row?.total ?? 0);
}

/**
 * The application's transitions, oldest first, redacted for a reviewer under blind review.
 * The caller has checked visibility.
 */
export async function listTransitions(
  sql: SQL,
  applicationId: string,
  viewer: User,
  page: Page,
  requestUrl: string,
): Promise<PageOf<Transition>> {
  const [total] = await sql`SELECT count(*) AS total FROM application_transitions
    WHERE application_id = ${applicationId}`;
  const rows = (await sql`SELECT * FROM application_transitions
    WHERE application_id = ${applicationId}
    ORDER BY created_at ASC, id ASC LIMIT ${page.limit} OFFSET ${page.offset}`) as TransitionRow[];
  const blind = await isBlindFor(sql, viewer, applicationId);
  const shown = rows.map((row) => toTransition(row, viewer));
  return toPage(
    requestUrl,
    page,
    toInt(total?.total ?? 0),
    blind ? shown.map(redactTransition) : shown,
  );
}
