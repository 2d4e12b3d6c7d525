import { isUniqueViolation } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { notFound, problem } from "../../../problems.ts";
import { enqueueEmail } from "../../outbox/service.ts";
import type { User } from "../../users/model.ts";
import type { Application, Origin } from "../../workflow/model.ts";
import {
  adjustCount,
  loadApplication,
  lockIntake,
  lostRace,
  recordAudit,
  recordTransition,
  seatsOf,
} from "../../workflow/service.ts";
import type { Deferral, DeferralDecision } from "../model.ts";
import { type DeferralRow, findDeferral, toDeferral } from "../queries.ts";
import type { DeferralsDeps } from "./request.ts";

type StaffOrigin = Origin & { actor: User };

const closed = (row: DeferralRow) =>
  problem("DEFERRAL_CLOSED", { detail: `This deferral request was already ${row.status}` });

function letter(application: Application, body: string) {
  return {
    applicationId: application.id,
    to: application.applicant.email,
    body: `Dear ${application.applicant.fullName},\n\n${body}\n\nApplication reference: ${application.id}\n\nAdmissions Office`,
  };
}

/**
 * Approves a deferral: in one transaction the place leaves the old intake and takes a seat in
 * the new one (which must have one: 409 NO_SEATS_AVAILABLE), with history, audit and the
 * applicant's email. Both intakes are locked, in id order, before the application is read, as
 * every move locks its intake first: two deferrals crossing between the same two intakes
 * cannot deadlock, and no offer or acceptance slips past the seat check.
 */
export function approveDeferral(
  deps: DeferralsDeps,
  origin: StaffOrigin,
  applicationId: string,
  deferralId: string,
  decision: DeferralDecision,
): Promise<Deferral> {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const row = await findDeferral(tx, applicationId, deferralId);
    if (!row) throw notFound("Deferral");
    for (const intakeId of [row.from_intake_id, row.to_intake_id].sort()) {
      await lockIntake(tx, deps.move.dialect, intakeId);
    }
    const current = await findDeferral(tx, applicationId, deferralId);
    if (current?.status !== "requested") throw closed(current ?? row);
    const application = await loadApplication(tx, applicationId);
    if (!application) throw notFound("Application");
    if (application.status !== "accepted" || application.intake.id !== row.from_intake_id) {
      throw problem("DEFERRAL_NOT_ALLOWED", {
        detail: `The place is no longer an accepted one in ${row.from_term} (the application is ${application.status}); refuse the request`,
      });
    }
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
        WHERE id = ${applicationId} AND version = ${application.version}`;
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
    await recordTransition(tx, applicationId, "accepted", "accepted", { ...origin, reason, at });
    await tx`UPDATE deferrals SET status = 'approved', decided_by = ${origin.actor.id},
      decided_at = ${at}, decision_note = ${decision?.note?.trim() || null}
      WHERE id = ${deferralId}`;
    await recordAudit(
      tx,
      origin,
      {
        action: "deferral.approved",
        applicationId,
        subject: { type: "deferral", id: deferralId },
        details: { fromIntakeId: row.from_intake_id, toIntakeId: row.to_intake_id },
      },
      at,
    );
    await enqueueEmail(
      tx,
      {
        ...letter(
          application,
          `Your place on ${application.program.name} is deferred: you now start in ${row.to_term} instead of ${row.from_term}.`,
        ),
        event: "deferral_approved",
        subject: `Deferral approved: ${application.program.name}`,
      },
      at,
    );
    return toDeferral((await findDeferral(tx, applicationId, deferralId)) ?? row);
  });
}

/** Refuses a deferral: the place stays where it is; the applicant is told. */
export function refuseDeferral(
  deps: DeferralsDeps,
  origin: StaffOrigin,
  applicationId: string,
  deferralId: string,
  decision: DeferralDecision,
): Promise<Deferral> {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const row = await findDeferral(tx, applicationId, deferralId);
    if (!row) throw notFound("Deferral");
    const changed = await tx`UPDATE deferrals SET status = 'refused',
      decided_by = ${origin.actor.id}, decided_at = ${at},
      decision_note = ${decision?.note?.trim() || null}
      WHERE id = ${deferralId} AND status = 'requested'`;
    if (changed.count !== 1) throw closed(row);
    const application = await loadApplication(tx, applicationId);
    if (!application) throw notFound("Application");
    await recordAudit(
      tx,
      origin,
      {
        action: "deferral.refused",
        applicationId,
        subject: { type: "deferral", id: deferralId },
        details: { toIntakeId: row.to_intake_id, note: decision?.note ?? null },
      },
      at,
    );
    await enqueueEmail(
      tx,
      {
        ...letter(
          application,
          `We cannot defer your place on ${application.program.name} to ${row.to_term}; your place in ${row.from_term} stands.${decision?.note ? `\n\n${decision.note}` : ""}`,
        ),
        event: "deferral_refused",
        subject: `Deferral request: ${application.program.name}`,
      },
      at,
    );
    return toDeferral((await findDeferral(tx, applicationId, deferralId)) ?? row);
  });
}
