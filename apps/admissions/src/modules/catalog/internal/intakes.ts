import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { forUpdateOf, isUniqueViolation } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { notFound, problem } from "../../../problems.ts";
import type { Origin } from "../../workflow/model.ts";
import { recordAudit, seatsOf } from "../../workflow/service.ts";
import type { Intake, IntakeCreate, IntakeUpdate, Program } from "../model.ts";
import { type IntakeRow, type ProgramRow, toIntake, toProgram } from "../queries.ts";
import { intakeCreated, intakeUpdated } from "./audit.ts";
import type { CatalogDeps } from "./deps.ts";

export async function listIntakes(db: Db, programId: string, nowMs: number): Promise<Intake[]> {
  const rows = await db.run(
    (sql): Promise<IntakeRow[]> =>
      sql`SELECT * FROM intakes WHERE program_id = ${programId} ORDER BY deadline ASC, id ASC`,
  );
  return rows.map((row) => toIntake(row, nowMs));
}

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

/** Stored as canonical ISO text; the deadline must come after the opening. */
function checkedWindow(opensAt: string, deadline: string) {
  const opens = Date.parse(opensAt);
  const closes = Date.parse(deadline);
  if (!(opens < closes)) throw invalidField("/body/deadline", "must be later than opensAt");
  return { opens_at: isoAt(opens), deadline: isoAt(closes) };
}

const termTaken = (term: string) =>
  problem("INTAKE_TERM_TAKEN", { detail: `This program already has an intake "${term}"` });

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
  const created = await deps.db.transaction(async (tx) => {
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
  await deps.cache.invalidate();
  return created;
}

export async function updateIntake(
  deps: CatalogDeps,
  origin: Origin,
  id: string,
  patch: IntakeUpdate,
): Promise<Intake> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const updated = await deps.db.transaction(async (tx) => {
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
  await deps.cache.invalidate();
  return updated;
}
