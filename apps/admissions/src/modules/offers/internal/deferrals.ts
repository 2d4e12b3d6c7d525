import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { isUniqueViolation, toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { newId } from "../../../lib/ids.ts";
import type { Page } from "../../../lib/pagination.ts";
import { problem } from "../../../problems.ts";
import { findIntakeWithProgram } from "../../catalog/service.ts";
import type { Application, Origin } from "../../workflow/model.ts";
import { adjustCount, lostRace, recordTransition, seatsOf } from "../../workflow/service.ts";
import type { Deferral, DeferralCreate, StaffDeferral } from "../model.ts";

/*
 * Deferrals (issue 19) as rows: an accepted place moved to a later intake of the same program,
 * asked for by the applicant (or an admin for them) and approved or refused by admins.
 */

export type DeferralRow = {
  id: string;
  application_id: string;
  from_intake_id: string;
  from_term: string;
  to_intake_id: string;
  to_term: string;
  status: Deferral["status"];
  reason: string | null;
  requested_at: unknown;
  decided_at: unknown;
  decision_note: string | null;
};

const selectDeferrals = (sql: SQL) => sql`SELECT d.*, f.term AS from_term, n.term AS to_term
  FROM deferrals d
  JOIN intakes f ON f.id = d.from_intake_id
  JOIN intakes n ON n.id = d.to_intake_id`;

export const toDeferral = (row: DeferralRow): Deferral => ({
  id: row.id,
  applicationId: row.application_id,
  fromIntake: { id: row.from_intake_id, term: row.from_term },
  toIntake: { id: row.to_intake_id, term: row.to_term },
  status: row.status,
  reason: row.reason,
  requestedAt: toIso(row.requested_at),
  decidedAt: toIsoOrNull(row.decided_at),
  decisionNote: row.decision_note,
});

export const deferralsOf = (sql: SQL, applicationId: string): Promise<DeferralRow[]> =>
  sql`${selectDeferrals(sql)} WHERE d.application_id = ${applicationId}
    ORDER BY d.requested_at, d.id`;

type StaffDeferralRow = DeferralRow & {
  applicant_id: string;
  applicant_name: string;
  program_id: string;
  program_code: string;
  program_name: string;
};

/** Every application's requests (of one status), oldest first, with who asked and where. */
export async function deferralsIn(
  sql: SQL,
  status: Deferral["status"] | undefined,
  page: Page,
): Promise<{ total: number; items: StaffDeferral[] }> {
  const where = status === undefined ? sql`1 = 1` : sql`d.status = ${status}`;
  const [total] = await sql`SELECT count(*) AS n FROM deferrals d WHERE ${where}`;
  const rows = (await sql`SELECT d.*, f.term AS from_term, n.term AS to_term,
      a.applicant_id, u.full_name AS applicant_name,
      p.id AS program_id, p.code AS program_code, p.name AS program_name
    FROM deferrals d
    JOIN intakes f ON f.id = d.from_intake_id
    JOIN intakes n ON n.id = d.to_intake_id
    JOIN applications a ON a.id = d.application_id
    JOIN users u ON u.id = a.applicant_id
    JOIN programs p ON p.id = a.program_id
    WHERE ${where}
    ORDER BY d.requested_at, d.id LIMIT ${page.limit} OFFSET ${page.offset}`) as StaffDeferralRow[];
  return {
    total: toInt(total?.n ?? 0),
    items: rows.map((row) => ({
      ...toDeferral(row),
      applicant: { id: row.applicant_id, fullName: row.applicant_name },
      program: { id: row.program_id, code: row.program_code, name: row.program_name },
    })),
  };
}

export async function findDeferral(
  sql: SQL,
  applicationId: string,
  id: string,
): Promise<DeferralRow | null> {
  const [row] = (await sql`${selectDeferrals(sql)}
    WHERE d.id = ${id} AND d.application_id = ${applicationId}`) as DeferralRow[];
  return row ?? null;
}

export const closed = (row: DeferralRow) =>
  problem("DEFERRAL_CLOSED", { detail: `This deferral request was already ${row.status}` });

export const pendingAlready = () =>
  problem("DEFERRAL_PENDING", {
    detail: "This application already has a deferral request waiting for staff",
  });

function letter(application: Application, body: string) {
  return {
    applicationId: application.id,
    to: application.applicant.email,
    body: `Dear ${application.applicant.fullName},\n\n${body}\n\nApplication reference: ${application.id}\n\nAdmissions Office`,
  };
}

/** The applicant's letter: their place moved. */
export const approvedLetter = (application: Application, row: DeferralRow) => ({
  ...letter(
    application,
    `Your place on ${application.program.name} is deferred: you now start in ${row.to_term} instead of ${row.from_term}.`,
  ),
  event: "deferral_approved",
  subject: `Deferral approved: ${application.program.name}`,
});

/** The applicant's letter: their place stays, with the admin's note if any. */
export const refusedLetter = (application: Application, row: DeferralRow, note?: string) => ({
  ...letter(
    application,
    `We cannot defer your place on ${application.program.name} to ${row.to_term}; your place in ${row.from_term} stands.${note ? `\n\n${note}` : ""}`,
  ),
  event: "deferral_refused",
  subject: `Deferral request: ${application.program.name}`,
});

/** A new request (the unique index on open requests settles a race between two of them). */
export async function insertRequest(
  tx: SQL,
  application: Application,
  toIntakeId: string,
  body: DeferralCreate,
  requestedBy: string,
  at: string,
): Promise<string> {
  const id = newId();
  try {
    await tx`INSERT INTO deferrals ${tx({
      id,
      application_id: application.id,
      from_intake_id: application.intake.id,
      to_intake_id: toIntakeId,
      status: "requested",
      reason: body.reason?.trim() || null,
      requested_by: requestedBy,
      requested_at: at,
    })}`;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw pendingAlready();
  }
  return id;
}

/**
 * The intake a place may be deferred to: a later one of the same program (422 otherwise), to
 * which the applicant has not applied (409 DEFERRAL_CONFLICT).
 */
export async function laterIntake(
  tx: SQL,
  application: Application,
  toIntakeId: string,
  nowMs: number,
) {
  const target = await findIntakeWithProgram(tx, toIntakeId, nowMs);
  const later =
    target &&
    target.program.id === application.program.id &&
    Date.parse(target.intake.deadline) > Date.parse(application.intake.deadline);
  if (!target || !later) {
    throw invalidField("/body/toIntakeId", "must be a later intake of the same program", "later");
  }
  const [clash] = await tx`SELECT id FROM applications
    WHERE applicant_id = ${application.applicant.id} AND intake_id = ${target.intake.id}`;
  if (clash) {
    throw problem("DEFERRAL_CONFLICT", {
      detail: `The applicant already has an application for ${target.intake.term}`,
    });
  }
  return target.intake;
}

/**
 * The place leaves the old intake and takes a seat in the new one (which must have one: 409
 * NO_SEATS_AVAILABLE), with the running totals and the history. The caller holds both
 * intakes' locks.
 */
export async function movePlace(
  tx: SQL,
  application: Application,
  row: DeferralRow,
  origin: Origin,
  at: string,
): Promise<void> {
  const seats = await seatsOf(tx, row.to_intake_id);
  if (seats.held >= seats.capacity || seats.taken >= seats.capacity) {
    throw problem("NO_SEATS_AVAILABLE", {
      detail: `All ${seats.capacity} seats of ${row.to_term} are held or taken`,
      extensions: { seats },
    });
  }
  try {
    const moved = await tx`UPDATE applications SET intake_id = ${row.to_intake_id},
      version = ${application.version + 1}, updated_at = ${at}
      WHERE id = ${application.id} AND version = ${application.version}`;
    if (moved.count !== 1) throw lostRace();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw problem("DEFERRAL_CONFLICT", {
      detail: `The applicant already has an application for ${row.to_term}`,
    });
  }
  const key = { programId: application.program.id, status: "accepted" as const };
  await adjustCount(tx, { ...key, intakeId: row.from_intake_id }, -1);
  await adjustCount(tx, { ...key, intakeId: row.to_intake_id }, 1);
  const reason = `Deferred from ${row.from_term} to ${row.to_term}`;
  await recordTransition(tx, application.id, "accepted", "accepted", { ...origin, reason, at });
}
