import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { forUpdateOf, isUniqueViolation, toIsoOrNull } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import { isStaff, type User } from "../users/model.ts";
import type { Application, Origin } from "../workflow/model.ts";
import {
  type ApplicationRow,
  blinderFor,
  lockIntake,
  moveApplication,
  recordAudit,
  seatsOf,
  selectApplications,
  toApplication,
} from "../workflow/service.ts";
import { intakeCreated, intakeUpdated, programChanged, programCreated } from "./internal/audit.ts";
import type { CatalogDeps } from "./internal/deps.ts";
import { checkedWindow, firstWaitlisted, listIntakes, termTaken } from "./internal/intakes.ts";
import {
  codeTaken,
  findProgram,
  type ListFilters,
  programColumns,
  selectPrograms,
} from "./internal/programs.ts";
import {
  type IntakeRow,
  isOpenAt,
  type ProgramRow,
  toIntake,
  toProgram,
} from "./internal/queries.ts";
import type {
  DecisionsDue,
  DecisionsDueBody,
  Intake,
  IntakeCreate,
  IntakeUpdate,
  Program,
  ProgramCreate,
  ProgramDetail,
  ProgramListItem,
  ProgramListQuery,
  ProgramUpdate,
} from "./model.ts";

/*
 * The program catalog: programs and their intakes (public to read, staff to edit, every edit
 * audited), and each intake's seats, waitlist and decision deadline.
 */

/** Built once by the app: the public list's cache in the shared store. */
export { catalogCache } from "./internal/cache.ts";
export type { CatalogDeps };
/** Applications check the same opening window the catalog shows (modules/applications). */
export { isOpenAt };

/**
 * A catalog edit: written (with its audit entry) in one transaction, then the public list's
 * cache dropped, once the edit is committed.
 */
async function edit<T>(deps: CatalogDeps, write: (tx: SQL) => Promise<T>): Promise<T> {
  const done = await deps.db.transaction(write);
  await deps.cache.invalidate();
  return done;
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
): Promise<PageOf<ProgramListItem>> {
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
  return edit(deps, async (tx) => {
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
  return edit(deps, async (tx) => {
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

/**
 * An intake with its program: what an application is made against. Takes a `sql` handle so
 * it can run inside the caller's transaction.
 */
export async function findIntakeWithProgram(
  sql: SQL,
  intakeId: string,
  nowMs: number,
): Promise<{ intake: Intake; program: Program } | null> {
  const [intakeRow] = (await sql`SELECT * FROM intakes WHERE id = ${intakeId}`) as IntakeRow[];
  if (!intakeRow) return null;
  const [programRow] = (await sql`SELECT * FROM programs
    WHERE id = ${intakeRow.program_id}`) as ProgramRow[];
  if (!programRow) return null;
  return { intake: toIntake(intakeRow, nowMs), program: toProgram(programRow) };
}

export async function createIntake(
  deps: CatalogDeps,
  origin: Origin,
  programId: string,
  input: IntakeCreate,
): Promise<Intake> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const row = {
    id: newId(),
    program_id: programId,
    term: input.term.trim(),
    ...checkedWindow(input.opensAt, input.deadline),
    capacity: input.capacity,
    created_at: at,
    updated_at: at,
  };
  return edit(deps, async (tx) => {
    const [program] = await tx`SELECT id FROM programs WHERE id = ${programId}`;
    if (!program) throw notFound("Program");
    let rows: IntakeRow[];
    try {
      rows = await tx`INSERT INTO intakes ${tx(row)} RETURNING *`;
    } catch (error) {
      throw isUniqueViolation(error) ? termTaken(row.term) : error;
    }
    const intake = toIntake(rows[0] as IntakeRow, nowMs);
    await recordAudit(tx, origin, intakeCreated(intake), at);
    return intake;
  });
}

export async function updateIntake(
  deps: CatalogDeps,
  origin: Origin,
  id: string,
  patch: IntakeUpdate,
): Promise<Intake> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return edit(deps, async (tx) => {
    // Locked like every status change locks it, so no acceptance slips past the check below.
    const [current] = (await tx`SELECT * FROM intakes i
      WHERE i.id = ${id}${forUpdateOf(tx, deps.db.dialect, "i")}`) as IntakeRow[];
    if (!current) throw notFound("Intake");
    if (patch.capacity !== undefined) {
      const { taken } = await seatsOf(tx, id);
      if (patch.capacity < taken) {
        throw problem("CAPACITY_BELOW_TAKEN", {
          detail: `${taken} places of this intake are already accepted or enrolled`,
          extensions: { taken },
        });
      }
    }
    const existing = toIntake(current, nowMs);
    const columns = {
      ...(patch.term !== undefined ? { term: patch.term.trim() } : {}),
      ...(patch.capacity !== undefined ? { capacity: patch.capacity } : {}),
      ...checkedWindow(patch.opensAt ?? existing.opensAt, patch.deadline ?? existing.deadline),
      updated_at: at,
    };
    let rows: IntakeRow[];
    try {
      rows = await tx`UPDATE intakes SET ${tx(columns)} WHERE id = ${id} RETURNING *`;
    } catch (error) {
      throw isUniqueViolation(error) ? termTaken(columns.term ?? existing.term) : error;
    }
    const intake = toIntake(rows[0] as IntakeRow, nowMs);
    await recordAudit(tx, origin, intakeUpdated(existing, intake), at);
    return intake;
  });
}

/**
 * Offers the first waitlisted application of the intake a seat, if one is free (409
 * NO_SEATS_AVAILABLE otherwise, WAITLIST_EMPTY when nobody waits). The intake is locked before
 * the first in line is read, so two promotions at once offer two different applicants.
 */
export function promoteFromWaitlist(
  deps: CatalogDeps,
  origin: Origin,
  intakeId: string,
  body: { respondBy?: string | undefined; reason?: string | undefined },
): Promise<Application> {
  const nowMs = deps.now();
  return deps.db.transaction(async (tx) => {
    await seatsOf(tx, intakeId); // 404 for an unknown intake
    await lockIntake(tx, deps.db.dialect, intakeId);
    const first = await firstWaitlisted(tx, intakeId);
    if (!first) throw problem("WAITLIST_EMPTY", { detail: "Nobody is on this intake's waitlist" });
    return moveApplication(
      tx,
      deps.move,
      origin,
      first,
      {
        to: "offered",
        reason: body.reason ?? "Promoted from the waitlist",
        preconditions: [],
        decision: { respondBy: body.respondBy },
        via: "promotion",
      },
      nowMs,
    );
  });
}

export const getSeats = (deps: CatalogDeps, intakeId: string) =>
  deps.db.run((sql) => seatsOf(sql, intakeId));

/** The intake's waitlist in promotion order (blinded for reviewers where the program says). */
export function listWaitlist(
  deps: CatalogDeps,
  viewer: User,
  intakeId: string,
  page: Page,
  requestUrl: string,
): Promise<PageOf<Application>> {
  return deps.db.run(async (sql) => {
    const seats = await seatsOf(sql, intakeId);
    const rows = (await sql`${selectApplications(sql)}
      WHERE a.intake_id = ${intakeId} AND a.status = 'waitlisted'
      ORDER BY a.waitlist_position ASC, a.id ASC
      LIMIT ${page.limit} OFFSET ${page.offset}`) as ApplicationRow[];
    const blind = await blinderFor(sql, viewer);
    return toPage(
      requestUrl,
      page,
      seats.waitlisted,
      rows.map((row) => blind(toApplication(row))),
    );
  });
}

export const getDecisionsDue = (deps: CatalogDeps, intakeId: string): Promise<DecisionsDue> =>
  deps.db.run(async (sql) => {
    const [row] = await sql`SELECT decisions_due_at FROM intakes WHERE id = ${intakeId}`;
    if (!row) throw notFound("Intake");
    return { intakeId, decisionsDueAt: toIsoOrNull(row.decisions_due_at) };
  });

/**
 * When the intake's decisions are due (null: no date). Reviewers with applications still
 * waiting are reminded before it by the background pass, once per due date.
 */
export function setDecisionsDue(
  deps: CatalogDeps,
  origin: Origin,
  intakeId: string,
  body: DecisionsDueBody,
): Promise<DecisionsDue> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const due = body.decisionsDueAt === null ? null : Date.parse(body.decisionsDueAt);
  if (due !== null && !(due > nowMs)) {
    throw invalidField("/body/decisionsDueAt", "must be in the future", "future");
  }
  const dueAt = due === null ? null : isoAt(due);
  return deps.db.transaction(async (tx) => {
    const [before] = await tx`SELECT decisions_due_at FROM intakes WHERE id = ${intakeId}`;
    if (!before) throw notFound("Intake");
    await tx`UPDATE intakes SET decisions_due_at = ${dueAt} WHERE id = ${intakeId}`;
    await recordAudit(
      tx,
      origin,
      {
        action: "intake.decisions_due_set",
        subject: { type: "intake", id: intakeId },
        details: { from: toIsoOrNull(before.decisions_due_at), to: dueAt },
      },
      at,
    );
    return { intakeId, decisionsDueAt: dueAt };
  });
}
