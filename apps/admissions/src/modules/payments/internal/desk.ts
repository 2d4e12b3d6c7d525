import type { SQL } from "bun";
import { containsPattern } from "../../../lib/search.ts";
import type { DeskPayment, DeskQuery, Payment } from "../model.ts";
import type { PaymentRow } from "./queries.ts";

/*
 * The payments desk: every payment with the application it pays for, filtered by status,
 * provider and a search that reads a reference as a bank statement prints it.
 */

type DeskRow = PaymentRow & {
  application_status: string;
  applicant_id: string;
  applicant_name: string;
  applicant_email: string;
  program_id: string;
  program_code: string;
  program_name: string;
  intake_id: string;
  intake_term: string;
};

type Fragment = SQL.Query<unknown>;

/** A reference without its hyphens or spaces, upper-case: `adm 7kq2-m9xd` → `ADM7KQ2M9XD`. */
const compact = (text: string) => text.replace(/[\s-]+/g, "").toUpperCase();

function whereOf(sql: SQL, query: DeskQuery, status: string): Fragment {
  const conditions: Fragment[] = [sql`pm.status = ${status}`];
  if (query.provider) conditions.push(sql`pm.provider = ${query.provider}`);
  if (query.overpaid) conditions.push(sql`pm.amount_received > pm.amount`);
  const search = query.search?.trim();
  if (search) {
    const person = containsPattern(search);
    const reference = containsPattern(compact(search));
    conditions.push(sql`(lower(replace(pm.reference, '-', '')) LIKE ${reference} ESCAPE '\\'
      OR lower(u.full_name) LIKE ${person} ESCAPE '\\'
      OR lower(u.email) LIKE ${person} ESCAPE '\\')`);
  }
  return conditions.reduce((all, next) => sql`${all} AND ${next}`);
}

const FROM = (sql: SQL) => sql`FROM payments pm
  JOIN applications a ON a.id = pm.application_id
  JOIN users u ON u.id = a.applicant_id`;

/** The page of rows and how many match; pending ones oldest first, the rest newest first. */
export async function deskRows(
  sql: SQL,
  query: DeskQuery,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: DeskRow[] }> {
  const status = query.status ?? "pending";
  const where = whereOf(sql, query, status);
  const order =
    status === "pending" ? sql`pm.created_at ASC, pm.id ASC` : sql`pm.updated_at DESC, pm.id DESC`;
  const [count] = await sql`SELECT count(*) AS n ${FROM(sql)} WHERE ${where}`;
  const rows = (await sql`SELECT pm.*, a.status AS application_status, a.applicant_id,
      u.full_name AS applicant_name, u.email AS applicant_email,
      p.id AS program_id, p.code AS program_code, p.name AS program_name,
      i.id AS intake_id, i.term AS intake_term
    ${FROM(sql)}
    JOIN programs p ON p.id = a.program_id
    JOIN intakes i ON i.id = a.intake_id
    WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`) as DeskRow[];
  return { total: Number(count?.n ?? 0), rows };
}

export const toDeskPayment = (row: DeskRow, payment: Payment): DeskPayment => ({
  ...payment,
  application: {
    id: row.application_id,
    status: row.application_status,
    applicant: { id: row.applicant_id, fullName: row.applicant_name, email: row.applicant_email },
    program: { id: row.program_id, code: row.program_code, name: row.program_name },
    intake: { id: row.intake_id, term: row.intake_term },
  },
});
