import { toBool, toIso } from "../../../db/dialect.ts";
import type { DocumentType, Intake, Program } from "../model.ts";

/** Table rows as the database returns them, and their API shapes. */
export type ProgramRow = {
  id: string;
  code: string;
  name: string;
  level: Program["level"];
  department: string;
  description: string;
  duration_months: number;
  application_fee: number;
  currency: string;
  entry_requirements: string;
  required_documents: string;
  active: unknown;
  created_at: unknown;
  updated_at: unknown;
};

export type IntakeRow = {
  id: string;
  program_id: string;
  term: string;
  opens_at: unknown;
  deadline: unknown;
  capacity: number;
  created_at: unknown;
  updated_at: unknown;
};

export const toProgram = (row: ProgramRow): Program => ({
  id: row.id,
  code: row.code,
  name: row.name,
  level: row.level,
  department: row.department,
  description: row.description,
  durationMonths: Number(row.duration_months),
  applicationFee: { amount: Number(row.application_fee), currency: row.currency },
  entryRequirements: row.entry_requirements,
  requiredDocuments: JSON.parse(row.required_documents) as DocumentType[],
  active: toBool(row.active),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

/** Open: applications accepted from `opensAt` up to (not including) the deadline. */
export const isOpenAt = (intake: { opensAt: string; deadline: string }, nowMs: number) =>
  Date.parse(intake.opensAt) <= nowMs && nowMs < Date.parse(intake.deadline);

export function toIntake(row: IntakeRow, nowMs: number): Intake {
  const opensAt = toIso(row.opens_at);
  const deadline = toIso(row.deadline);
  return {
    id: row.id,
    programId: row.program_id,
    term: row.term,
    opensAt,
    deadline,
    capacity: Number(row.capacity),
    isOpen: isOpenAt({ opensAt, deadline }, nowMs),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
