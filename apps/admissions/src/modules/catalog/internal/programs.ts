import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { toInt, toIsoOrNull } from "../../../db/dialect.ts";
import type { Page } from "../../../lib/pagination.ts";
import { containsPattern } from "../../../lib/search.ts";
import { problem } from "../../../problems.ts";
import type { Program, ProgramListItem, ProgramListQuery, ProgramUpdate } from "../model.ts";
import { type ProgramRow, toProgram } from "./queries.ts";

/* Programs as rows: the list's filters and orderings, one program, the columns an edit writes. */

type Ordering = NonNullable<ProgramListQuery["ordering"]>;

/** Whitelisted ORDER BY clauses: the client picks a key, never SQL. Ties break on id. */
const ORDER_BY: Record<Ordering, (sql: SQL) => SQL.Query<unknown>> = {
  name: (sql) => sql`p.name ASC, p.id ASC`,
  "-name": (sql) => sql`p.name DESC, p.id DESC`,
  code: (sql) => sql`p.code ASC, p.id ASC`,
  "-code": (sql) => sql`p.code DESC, p.id DESC`,
  applicationFee: (sql) => sql`p.application_fee ASC, p.id ASC`,
  "-applicationFee": (sql) => sql`p.application_fee DESC, p.id DESC`,
  createdAt: (sql) => sql`p.created_at ASC, p.id ASC`,
  "-createdAt": (sql) => sql`p.created_at DESC, p.id DESC`,
};

export type ListFilters = Omit<ProgramListQuery, "limit" | "offset"> & Page & { nowIso: string };

export async function selectPrograms(db: Db, f: ListFilters) {
  return db.run(async (sql) => {
    const conditions = [
      f.active === undefined ? sql`1 = 1` : sql`p.active = ${f.active}`,
      f.level ? sql`p.level = ${f.level}` : sql`1 = 1`,
      f.department ? sql`p.department = ${f.department}` : sql`1 = 1`,
    ];
    if (f.search) {
      const pattern = containsPattern(f.search);
      conditions.push(sql`(lower(p.name) LIKE ${pattern} ESCAPE '\\'
        OR lower(p.code) LIKE ${pattern} ESCAPE '\\'
        OR lower(p.department) LIKE ${pattern} ESCAPE '\\')`);
    }
    if (f.openForApplications !== undefined) {
      const open = sql`EXISTS (SELECT 1 FROM intakes i WHERE i.program_id = p.id
        AND i.opens_at <= ${f.nowIso} AND i.deadline > ${f.nowIso})`;
      conditions.push(f.openForApplications ? open : sql`NOT ${open}`);
    }
    const where = conditions.reduce((all, next) => sql`${all} AND ${next}`);
    const orderBy = ORDER_BY[f.ordering ?? "name"](sql);
    const [total] = await sql`SELECT count(*) AS total FROM programs p WHERE ${where}`;
    const rows: (ProgramRow & { next_deadline: unknown })[] = await sql`SELECT p.*,
        (SELECT min(i.deadline) FROM intakes i WHERE i.program_id = p.id
          AND i.opens_at <= ${f.nowIso} AND i.deadline > ${f.nowIso}) AS next_deadline
      FROM programs p WHERE ${where}
      ORDER BY ${orderBy} LIMIT ${f.limit} OFFSET ${f.offset}`;
    const programs: ProgramListItem[] = rows.map((row) => ({
      ...toProgram(row),
      nextDeadline: toIsoOrNull(row.next_deadline),
    }));
    return { count: toInt(total?.total), programs };
  });
}

export async function findProgram(db: Db, id: string): Promise<Program | null> {
  const [row] = await db.run(
    (sql): Promise<ProgramRow[]> => sql`SELECT * FROM programs WHERE id = ${id}`,
  );
  return row ? toProgram(row) : null;
}

export const codeTaken = (code: string) =>
  problem("PROGRAM_CODE_TAKEN", { detail: `A program with code ${code} already exists` });

/** API fields → columns; only these keys ever reach SQL as identifiers. */
export function programColumns(input: ProgramUpdate) {
  const columns: Record<string, string | number | boolean> = {};
  if (input.code !== undefined) columns.code = input.code;
  if (input.name !== undefined) columns.name = input.name.trim();
  if (input.level !== undefined) columns.level = input.level;
  if (input.department !== undefined) columns.department = input.department.trim();
  if (input.description !== undefined) columns.description = input.description;
  if (input.durationMonths !== undefined) columns.duration_months = input.durationMonths;
  if (input.applicationFee !== undefined) {
    columns.application_fee = input.applicationFee.amount;
    columns.currency = input.applicationFee.currency;
  }
  if (input.entryRequirements !== undefined) columns.entry_requirements = input.entryRequirements;
  if (input.requiredDocuments !== undefined) {
    columns.required_documents = JSON.stringify(input.requiredDocuments);
  }
  if (input.active !== undefined) columns.active = input.active;
  return columns;
}
