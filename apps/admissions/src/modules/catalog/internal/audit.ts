import type { AuditEvent } from "../../workflow/model.ts";
import { type Intake, IntakeUpdate, type Program, ProgramUpdate } from "../model.ts";

/** The fields staff set on a program or an intake: what its audit entries report. */
const PROGRAM_FIELDS = Object.keys(ProgramUpdate.properties) as (keyof ProgramUpdate)[];
const INTAKE_FIELDS = Object.keys(IntakeUpdate.properties) as (keyof IntakeUpdate)[];

type Change = { from: unknown; to: unknown };

/**
 * The fields whose value differs between two versions, with both values, so the log alone
 * tells what a change did. A fee or a document list compares by content.
 */
function changesOf<T extends Record<string, unknown>>(
  before: T,
  after: T,
  fields: readonly (keyof T & string)[],
): Record<string, Change> {
  const changes: Record<string, Change> = {};
  for (const field of fields) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes[field] = { from: before[field], to: after[field] };
    }
  }
  return changes;
}

function pick<T extends Record<string, unknown>>(record: T, fields: readonly (keyof T & string)[]) {
  return Object.fromEntries(fields.map((field) => [field, record[field]]));
}

const programSubject = (program: Program) => ({ type: "program", id: program.id });
const intakeSubject = (intake: Intake) => ({ type: "intake", id: intake.id });

/** A new program: every field as stored. */
export const programCreated = (program: Program): AuditEvent => ({
  action: "program.created",
  subject: programSubject(program),
  details: pick(program, PROGRAM_FIELDS),
});

/** An edited or deactivated program: its code, and each field that changed (none for a no-op). */
export const programChanged = (
  action: "program.updated" | "program.deactivated",
  before: Program,
  after: Program,
): AuditEvent => ({
  action,
  subject: programSubject(after),
  details: { code: after.code, changes: changesOf(before, after, PROGRAM_FIELDS) },
});

/** A new intake: its program and every field as stored. */
export const intakeCreated = (intake: Intake): AuditEvent => ({
  action: "intake.created",
  subject: intakeSubject(intake),
  details: { programId: intake.programId, ...pick(intake, INTAKE_FIELDS) },
});

/** An edited intake: its program, its term, and each field that changed. */
export const intakeUpdated = (before: Intake, after: Intake): AuditEvent => ({
  action: "intake.updated",
  subject: intakeSubject(after),
  details: {
    programId: after.programId,
    term: after.term,
    changes: changesOf(before, after, INTAKE_FIELDS),
  },
});
