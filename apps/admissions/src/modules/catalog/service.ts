import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { forUpdateOf, isUniqueViolation, toInt } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { containsPattern } from "../../lib/search.ts";
import { notFound, problem } from "../../problems.ts";
import { isStaff, type User } from "../users/model.ts";
import type { Origin } from "../workflow/model.ts";
import { recordAudit } from "../workflow/service.ts";
import { programChanged, programCreated } from "./internal/audit.ts";
import type { CatalogDeps } from "./internal/deps.ts";
import { listIntakes } from "./internal/intakes.ts";

export type { CatalogDeps } from "./internal/deps.ts";
export { findIntakeWithProgram } from "./internal/intakes.ts";
export { isOpenAt } from "./queries.ts";

import type {
  Program,
  ProgramCreate,
  ProgramDetail,
  ProgramListQuery,
  ProgramUpdate,
} from "./model.ts";
import { type ProgramRow, toProgram } from "./queries.ts";

export { catalogCache } from "./internal/cache.ts";
export { createIntake, updateIntake } from "./internal/intakes.ts";

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

type ListFilters = Omit<ProgramListQuery, "limit" | "offset"> & Page & { nowIso: string };

async function selectPrograms(db: Db, f: ListFilters) {
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
    const rows: ProgramRow[] = await sql`SELECT p.* FROM programs p WHERE ${where}
      ORDER BY ${orderBy} LIMIT ${f.limit} OFFSET ${f.offset}`;
    return { count: toInt(total?.total), programs: rows.map(toProgram) };
  });
}

/**
 * Public list. Everyone but staff sees active programs only, and their pages come from the
 * shared cache; staff may filter on `active` and always read the database.
 */
export async function listPrograms(
  deps: CatalogDeps,
  query: ProgramListQuery,
  page: Page,
  viewer: User | null,
  requestUrl: string,
): Promise<PageOf<Program>> {
  const staff = viewer !== null && isStaff(viewer.role);
  const { limit: _l, offset: _o, ...rest } = query;
  const filters: ListFilters = {
    ...rest,
    ...page,
    active: staff ? query.active : true,
    nowIso: isoAt(deps.now()),
  };
  const load = () => selectPrograms(deps.db, filters);
  const { nowIso: _n, ...cacheKey } = filters;
  const { count, programs } = staff ? await load() : await deps.cache.read(cacheKey, load);
  return toPage(requestUrl, page, count, programs);
}

async function findProgram(db: Db, id: string): Promise<Program | null> {
  const [row] = await db.run(
    (sql): Promise<ProgramRow[]> => sql`SELECT * FROM programs WHERE id = ${id}`,
  );
  return row ? toProgram(row) : null;
}

/** A program and its intakes. Inactive programs exist only for staff. */
export async function getProgram(
  deps: CatalogDeps,
  id: string,
  viewer: User | null,
): Promise<ProgramDetail> {
  const program = await findProgram(deps.db, id);
  const visible = program && (program.active || (viewer !== null && isStaff(viewer.role)));
  if (!visible) throw notFound("Program");
  return { ...program, intakes: await listIntakes(deps.db, id, deps.now()) };
}

const codeTaken = (code: string) =>
  problem("PROGRAM_CODE_TAKEN", { detail: `A program with code ${code} already exists` });

/** API fields → columns; only these keys ever reach SQL as identifiers. */
function programColumns(input: ProgramUpdate) {
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

/**
 * Staff add a program; the row and its audit entry are written together, and the public
 * list's cache is dropped once they are committed.
 */
export async function createProgram(
  deps: CatalogDeps,
  origin: Origin,
  input: ProgramCreate,
): Promise<Program> {
  const at = isoAt(deps.now());
  const row = {
    id: newId(),
    description: "",
    entry_requirements: "",
    required_documents: "[]",
    active: true,
    ...programColumns(input),
    created_at: at,
    updated_at: at,
  };
  const created = await deps.db.transaction(async (tx) => {
    let rows: ProgramRow[];
    try {
      rows = await tx`INSERT INTO programs ${tx(row)} RETURNING *`;
    } catch (error) {
      throw isUniqueViolation(error) ? codeTaken(input.code) : error;
    }
    const program = toProgram(rows[0] as ProgramRow);
    await recordAudit(tx, origin, programCreated(program), at);
    return program;
  });
  await deps.cache.invalidate();
  return created;
}

/**
 * Changes some of a program's fields; the audit entry records each field's value before and
 * after, so the row is locked between reading and writing it.
 */
async function changeProgram(
  deps: CatalogDeps,
  origin: Origin,
  id: string,
  patch: ProgramUpdate,
  action: "program.updated" | "program.deactivated",
): Promise<Program> {
  const at = isoAt(deps.now());
  const columns = { ...programColumns(patch), updated_at: at };
  const updated = await deps.db.transaction(async (tx) => {
    const [current] = (await tx`SELECT * FROM programs p
      WHERE p.id = ${id}${forUpdateOf(tx, deps.db.dialect, "p")}`) as ProgramRow[];
    if (!current) throw notFound("Program");
    let rows: ProgramRow[];
    try {
      rows = await tx`UPDATE programs SET ${tx(columns)} WHERE id = ${id} RETURNING *`;
    } catch (error) {
      throw isUniqueViolation(error) ? codeTaken(patch.code ?? current.code) : error;
    }
    const program = toProgram(rows[0] as ProgramRow);
    await recordAudit(tx, origin, programChanged(action, toProgram(current), program), at);
    return program;
  });
  await deps.cache.invalidate();
  return updated;
}

export const updateProgram = (
  deps: CatalogDeps,
  origin: Origin,
  id: string,
  patch: ProgramUpdate,
) => changeProgram(deps, origin, id, patch, "program.updated");

/** Hidden from the public and closed to new applications. */
export const deactivateProgram = (deps: CatalogDeps, origin: Origin, id: string) =>
  changeProgram(deps, origin, id, { active: false }, "program.deactivated");
