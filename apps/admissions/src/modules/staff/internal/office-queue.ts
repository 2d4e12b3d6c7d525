import type { SQL } from "bun";
import { toBool, toInt } from "../../../db/dialect.ts";
import type { Page } from "../../../lib/pagination.ts";
import { type Filters, whereOf } from "../../applications/service.ts";
import { type ApplicationRow, selectApplications, toApplication } from "../../workflow/service.ts";
import type {
  ExportQuery,
  OfficeQueueQuery,
  OfficeQueueRow,
  PAYMENT_STATES,
  QUEUE_FLAGS,
} from "../model.ts";

/*
 * The office's queue: the list's filters (status, programme, intake, reviewer, dates, search)
 * and the office's own (payment state, score range, flags), sorted by any column, with the
 * counts per status beside it. Scores are the reviews' stored weighted totals averaged in SQL,
 * so a filter or a sort by score is one query however many applications there are.
 */

type Fragment = SQL.Query<unknown>;
type PaymentState = (typeof PAYMENT_STATES)[number];
type Flag = (typeof QUEUE_FLAGS)[number];

/** The counted reviews of `a`: not those whose reviewer declared a conflict since. */
const counted = (sql: SQL) => sql`FROM reviews r WHERE r.application_id = a.id
  AND NOT EXISTS (SELECT 1 FROM review_conflicts c
    WHERE c.application_id = r.application_id AND c.reviewer_id = r.reviewer_id)`;

/** The mean weighted total of `a`'s counted reviews; NULL without one. */
export const scoreOf = (sql: SQL) => sql`(SELECT avg(r.weighted_total) ${counted(sql)})`;

/** As the payments feature's fee status (payments/internal/ledger.ts), with `pending` apart. */
export const paymentStateOf = (sql: SQL) => sql`(CASE
  WHEN p.application_fee = 0 THEN 'not_required'
  WHEN EXISTS (SELECT 1 FROM fee_waivers w WHERE w.application_id = a.id) THEN 'waived'
  WHEN EXISTS (SELECT 1 FROM payments pm WHERE pm.application_id = a.id
    AND (pm.status = 'succeeded' OR (pm.status = 'refunded' AND pm.amount_refunded < pm.amount)))
    THEN 'paid'
  WHEN EXISTS (SELECT 1 FROM payments pm WHERE pm.application_id = a.id AND pm.status = 'pending')
    THEN 'pending'
  ELSE 'unpaid' END)`;

const FLAG_CONDITION: Record<Flag, (sql: SQL) => Fragment> = {
  unassigned: (sql) =>
    sql`NOT EXISTS (SELECT 1 FROM review_assignments ra WHERE ra.application_id = a.id)`,
  unscored: (sql) => sql`NOT EXISTS (SELECT 1 ${counted(sql)})`,
  disagreement: (sql) =>
    sql`EXISTS (SELECT 1 FROM review_extra_requests x WHERE x.application_id = a.id)`,
  conflict: (sql) => sql`EXISTS (SELECT 1 FROM review_conflicts c WHERE c.application_id = a.id)`,
};

/** Whether a query uses any of the office's own filters (the list's fast paths cannot answer it). */
export const usesOfficeFilters = (q: ExportQuery) =>
  q.paymentState !== undefined ||
  q.scoreMin !== undefined ||
  q.scoreMax !== undefined ||
  q.flag !== undefined;

/** The office's filters as SQL over `a` (applications) and `p` (programs). */
export function officeWhere(sql: SQL, q: ExportQuery): Fragment {
  const conditions: Fragment[] = [sql`1 = 1`];
  if (q.paymentState) conditions.push(sql`${paymentStateOf(sql)} = ${q.paymentState}`);
  if (q.scoreMin !== undefined) conditions.push(sql`${scoreOf(sql)} >= ${q.scoreMin}`);
  if (q.scoreMax !== undefined) conditions.push(sql`${scoreOf(sql)} <= ${q.scoreMax}`);
  if (q.flag) conditions.push(FLAG_CONDITION[q.flag](sql));
  return conditions.reduce((all, next) => sql`${all} AND ${next}`);
}

type Ordering = NonNullable<OfficeQueueQuery["ordering"]>;

/** Whitelisted sorts; the client picks a key, never SQL. Ties: oldest submission, then id. */
const ORDER_BY: Record<Ordering, (sql: SQL) => Fragment> = {
  submittedAt: (sql) => sql`a.submitted_at ASC NULLS LAST, a.id ASC`,
  "-submittedAt": (sql) => sql`a.submitted_at DESC NULLS LAST, a.id DESC`,
  score: (sql) => sql`score ASC NULLS LAST, a.submitted_at ASC, a.id ASC`,
  "-score": (sql) => sql`score DESC NULLS LAST, a.submitted_at ASC, a.id ASC`,
  deadline: (sql) => sql`i.deadline ASC, a.submitted_at ASC, a.id ASC`,
  "-deadline": (sql) => sql`i.deadline DESC, a.submitted_at ASC, a.id ASC`,
  applicant: (sql) => sql`lower(u.full_name) ASC, a.submitted_at ASC, a.id ASC`,
  "-applicant": (sql) => sql`lower(u.full_name) DESC, a.submitted_at ASC, a.id ASC`,
};

const JOINS = (sql: SQL) => sql`FROM applications a
  JOIN users u ON u.id = a.applicant_id
  JOIN programs p ON p.id = a.program_id
  JOIN intakes i ON i.id = a.intake_id`;

/** The page's rows in order: their ids first (sorted and cut in SQL), then the rows for those. */
export async function pageOfQueue(
  sql: SQL,
  filters: Filters,
  q: OfficeQueueQuery,
  page: Page,
): Promise<ApplicationRow[]> {
  const order = ORDER_BY[q.ordering ?? "submittedAt"];
  const byScore = q.ordering === "score" || q.ordering === "-score";
  const ids = (await sql`SELECT a.id${byScore ? sql`, ${scoreOf(sql)} AS score` : sql``}
    ${JOINS(sql)}
    WHERE ${whereOf(sql, filters)} AND ${officeWhere(sql, q)}
    ORDER BY ${order(sql)} LIMIT ${page.limit} OFFSET ${page.offset}`) as { id: string }[];
  if (ids.length === 0) return [];
  const rows = (await sql`${selectApplications(sql)}
    WHERE a.id IN ${sql(ids.map((row) => row.id))}`) as ApplicationRow[];
  const position = new Map(ids.map((row, i) => [row.id, i]));
  return rows.sort((x, y) => (position.get(x.id) ?? 0) - (position.get(y.id) ?? 0));
}

/**
 * Applications per status matching every filter but the status one. From the running totals
 * when only programme and intake narrow it; else counted over the matching rows.
 */
export async function countsByStatus(
  sql: SQL,
  filters: Filters,
  q: OfficeQueueQuery,
  scans: boolean,
): Promise<Record<string, number>> {
  let rows: { status: string; n: unknown }[];
  if (!scans) {
    rows = (await sql`SELECT status, COALESCE(sum(total), 0) AS n FROM application_counts
      WHERE ${q.programId ? sql`program_id = ${q.programId}` : sql`1 = 1`}
      AND ${q.intakeId ? sql`intake_id = ${q.intakeId}` : sql`1 = 1`}
      GROUP BY status`) as typeof rows;
  } else {
    const everyStatus = { ...filters, statuses: undefined };
    rows = (await sql`SELECT a.status, count(*) AS n ${JOINS(sql)}
      WHERE ${whereOf(sql, everyStatus)} AND ${officeWhere(sql, q)}
      GROUP BY a.status`) as typeof rows;
  }
  return Object.fromEntries(
    rows.map((row) => [row.status, toInt(row.n)]).filter(([, n]) => Number(n) > 0),
  );
}

/** How many match, from the counts per status (one query fewer). */
export const totalOf = (counts: Record<string, number>, statuses: string[] | undefined) =>
  Object.entries(counts)
    .filter(([status]) => !statuses || statuses.includes(status))
    .reduce((sum, [, n]) => sum + n, 0);

/** Score, reviewers, payment and flags of the page's applications, a few queries for them all. */
export async function officeRows(sql: SQL, rows: ApplicationRow[]): Promise<OfficeQueueRow[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const facts = (await sql`SELECT a.id, ${scoreOf(sql)} AS score,
      (SELECT count(*) ${counted(sql)}) AS reviews,
      ${paymentStateOf(sql)} AS payment_state,
      (SELECT pm.reference FROM payments pm
        WHERE pm.application_id = a.id AND pm.status = 'pending') AS pending_reference,
      ${FLAG_CONDITION.disagreement(sql)} AS disagreement,
      ${FLAG_CONDITION.conflict(sql)} AS conflict
    FROM applications a JOIN programs p ON p.id = a.program_id
    WHERE a.id IN ${sql(ids)}`) as {
    id: string;
    score: unknown;
    reviews: unknown;
    payment_state: PaymentState;
    pending_reference: string | null;
    disagreement: unknown;
    conflict: unknown;
  }[];
  const assigned = (await sql`SELECT ra.application_id, u.id, u.full_name,
      EXISTS (SELECT 1 FROM reviews r
        WHERE r.application_id = ra.application_id AND r.reviewer_id = ra.reviewer_id) AS reviewed
    FROM review_assignments ra JOIN users u ON u.id = ra.reviewer_id
    WHERE ra.application_id IN ${sql(ids)} ORDER BY ra.assigned_at, u.id`) as {
    application_id: string;
    id: string;
    full_name: string;
    reviewed: unknown;
  }[];
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  return rows.map((row) => {
    const fact = byId.get(row.id);
    const assignees = assigned
      .filter((a) => a.application_id === row.id)
      .map((a) => ({ id: a.id, fullName: a.full_name, reviewed: toBool(a.reviewed) }));
    const reviews = toInt(fact?.reviews ?? 0);
    const score = fact?.score === null || fact?.score === undefined ? null : Number(fact.score);
    const flags: Flag[] = [];
    if (assignees.length === 0) flags.push("unassigned");
    if (reviews === 0) flags.push("unscored");
    if (toBool(fact?.disagreement)) flags.push("disagreement");
    if (toBool(fact?.conflict)) flags.push("conflict");
    return {
      application: toApplication(row),
      score: score === null ? null : Math.round(score * 100) / 100,
      reviews,
      assignees,
      payment: {
        state: fact?.payment_state ?? "unpaid",
        pendingReference: fact?.pending_reference ?? null,
      },
      flags,
    };
  });
}
