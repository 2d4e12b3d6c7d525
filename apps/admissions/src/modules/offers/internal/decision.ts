import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import type { ApplicationStatus, Move } from "../../workflow/model.ts";
import { normalizeConditions, PLACE_TAKEN, SEAT_HOLDING, seatsOf } from "../../workflow/service.ts";

const OFFERS: ReadonlySet<ApplicationStatus> = new Set(["offered", "conditionally_offered"]);
const MAX_RESPONSE_MS = 366 * 86_400_000;

export type DecisionSettings = { defaultResponseMs: number };

/** Decision fields only make sense for their own status: anything else is a client mistake. */
function assertFieldsApply(move: Move): void {
  const { decision, to } = move;
  if (decision.respondBy !== undefined && !OFFERS.has(to)) {
    throw invalidField(
      "/body/respondBy",
      "applies to offers and conditional offers only",
      "notAllowed",
    );
  }
  if (decision.conditions !== undefined && to !== "conditionally_offered") {
    throw invalidField("/body/conditions", "applies to conditional offers only", "notAllowed");
  }
  if (decision.waitlistPosition !== undefined && to !== "waitlisted") {
    throw invalidField("/body/waitlistPosition", "applies to the waitlist only", "notAllowed");
  }
}

async function assertSeat(move: Move): Promise<void> {
  const from = move.before.status;
  const entersHeld = SEAT_HOLDING.has(move.to) && !SEAT_HOLDING.has(from);
  const takesPlace = PLACE_TAKEN.has(move.to) && !PLACE_TAKEN.has(from);
  if (!entersHeld && !takesPlace) return;
  const seats = await seatsOf(move.tx, move.before.intake.id);
  const full = entersHeld ? seats.held >= seats.capacity : seats.taken >= seats.capacity;
  if (full) {
    throw problem("NO_SEATS_AVAILABLE", {
      detail: entersHeld
        ? `All ${seats.capacity} seats of ${move.before.intake.term} are held by offers or taken; waitlist the application or wait for a seat to free`
        : `All ${seats.capacity} places of ${move.before.intake.term} are taken`,
      extensions: { seats },
    });
  }
}

function offerColumns(move: Move, settings: DecisionSettings) {
  const { decision, nowMs } = move;
  const respondBy =
    decision.respondBy !== undefined
      ? Date.parse(decision.respondBy)
      : nowMs + settings.defaultResponseMs;
  if (!(respondBy > nowMs) || respondBy > nowMs + MAX_RESPONSE_MS) {
    throw invalidField("/body/respondBy", "must be in the future, within a year", "future");
  }
  if (move.to === "conditionally_offered" && !decision.conditions?.length) {
    throw invalidField("/body/conditions", "a conditional offer lists its conditions", "required");
  }
  const conditions = normalizeConditions(decision.conditions).map((c) => c.description);
  return {
    offer_respond_by: isoAt(respondBy),
    offer_conditions: conditions.length ? JSON.stringify(conditions) : null,
  };
}

/**
 * The decision rules of one move, whichever route asked for it: decision fields only on their
 * own status, an answer only before the offer's deadline, a free seat, the offer's deadline and
 * conditions, the waitlist's positions; the columns the move writes with them.
 */
export async function decisionColumns(
  move: Move,
  settings: DecisionSettings,
): Promise<Record<string, string | number | null>> {
  assertFieldsApply(move);
  const { before, to } = move;
  if (to === "accepted" && before.offer && Date.parse(before.offer.respondBy) <= move.nowMs) {
    throw problem("OFFER_EXPIRED", {
      detail: `The offer had to be answered before ${before.offer.respondBy}`,
      extensions: { respondBy: before.offer.respondBy },
    });
  }
  await assertSeat(move);
  const columns: Record<string, string | number | null> = {};
  if (OFFERS.has(to)) Object.assign(columns, offerColumns(move, settings));
  if (before.status === "waitlisted") {
    await leaveWaitlist(move.tx, before.intake.id, before.waitlistPosition);
    columns.waitlist_position = null;
  }
  if (to === "waitlisted") {
    columns.waitlist_position = await joinWaitlist(
      move.tx,
      before.intake.id,
      move.decision.waitlistPosition,
    );
  }
  return columns;
}

/**
 * Waitlist positions per intake are 1..n without gaps. Joining at `position` (default: the
 * end) moves those at and behind it down one; leaving moves those behind up one. Callers hold
 * the intake's lock, so positions cannot be handed out twice.
 */
async function joinWaitlist(
  tx: SQL,
  intakeId: string,
  wanted: number | undefined,
): Promise<number> {
  const [row] = await tx`SELECT count(*) AS total FROM applications
    WHERE intake_id = ${intakeId} AND status = 'waitlisted'`;
  const end = toInt(row?.total ?? 0) + 1;
  const position = Math.min(wanted ?? end, end);
  if (position < end) {
    await tx`UPDATE applications SET waitlist_position = waitlist_position + 1
      WHERE intake_id = ${intakeId} AND status = 'waitlisted'
        AND waitlist_position >= ${position}`;
  }
  return position;
}

async function leaveWaitlist(tx: SQL, intakeId: string, position: number | null): Promise<void> {
  if (position === null) return;
  await tx`UPDATE applications SET waitlist_position = waitlist_position - 1
    WHERE intake_id = ${intakeId} AND status = 'waitlisted'
      AND waitlist_position > ${position}`;
}
