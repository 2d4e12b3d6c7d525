import { UNKNOWN_CLIENT } from "@platform/server";
import type { SQL } from "bun";
import type { Dialect } from "../../db/dialect.ts";
import { forUpdateOf } from "../../db/dialect.ts";
import { newId } from "../../lib/ids.ts";
import { notFound } from "../../problems.ts";
import { findIntakeWithProgram } from "../catalog/intakes.ts";
import type { User } from "../users/model.ts";
import { moveCount } from "./counts.ts";
import { assertSubmittable, type SubmissionChecks } from "./guards.ts";
import { assertTransition, moversFor } from "./lifecycle.ts";
import type { Application, ApplicationStatus, DecisionInput } from "./model.ts";
import { loadApplication, loadVisible } from "./rows.ts";
import { assertVersion, lostRace, type Precondition } from "./versions.ts";

/** The platform itself, e.g. the job that expires unanswered offers. It has no account. */
export type SystemActor = { readonly id: null; readonly role: "system" };
export const SYSTEM_ACTOR: SystemActor = { id: null, role: "system" };
export type Actor = User | SystemActor;

/** Where a change came from, for the history and the audit log. */
export type Origin = { actor: Actor; clientIp: string | null };

/** How a move was asked for: the audit log tells a bulk change from a single one. */
export type MoveVia = "transition" | "decision" | "bulk" | "promotion" | "assignment" | "expiry";

export type MoveRequest = {
  to: ApplicationStatus;
  reason: string | null;
  preconditions: Precondition[];
  decision?: DecisionInput;
  via?: MoveVia;
  /** Groups the moves of one bulk request in the audit log. */
  batchId?: string;
};

/** A move as the effects see it, inside its transaction. */
export type Move = {
  tx: SQL;
  dialect: Dialect;
  origin: Origin;
  before: Application;
  to: ApplicationStatus;
  reason: string | null;
  decision: DecisionInput;
  via: MoveVia;
  batchId: string | null;
  at: string;
  nowMs: number;
};

/**
 * What other features do when an application moves, in the mover's transaction: `prepare`
 * may refuse the move (a full intake) and returns columns to set with the status (an offer's
 * deadline); `settle` runs once the move is written (the waitlist closes up, the applicant's
 * email goes to the outbox, the audit log records it). All or nothing with the move itself.
 */
export type TransitionEffects = {
  prepare(move: Move): Promise<Record<string, string | number | null>>;
  settle(move: Move, after: Application): Promise<void>;
};

export const NO_EFFECTS: TransitionEffects = {
  prepare: async () => ({}),
  settle: async () => {},
};

export type MoveDeps = {
  dialect: Dialect;
  checks: SubmissionChecks;
  effects: TransitionEffects;
};

/**
 * Holds the intake's row until the transaction ends (PostgreSQL; SQLite has one writer).
 * Every status change takes it first, so seat counts and waitlist positions read under it
 * cannot change before the move commits, and locks are always taken in one order: intake,
 * then application, then the running totals.
 */
export async function lockIntake(tx: SQL, dialect: Dialect, intakeId: string): Promise<void> {
  await tx`SELECT i.id FROM intakes i WHERE i.id = ${intakeId}${forUpdateOf(tx, dialect, "i")}`;
}

export async function recordTransition(
  tx: SQL,
  applicationId: string,
  from: ApplicationStatus | null,
  to: ApplicationStatus,
  origin: Origin & { reason: string | null; at: string },
): Promise<void> {
  await tx`INSERT INTO application_transitions ${tx({
    id: newId(),
    application_id: applicationId,
    from_status: from,
    to_status: to,
    actor_id: origin.actor.id,
    actor_role: origin.actor.role,
    reason: origin.reason,
    client_ip: origin.clientIp,
    created_at: origin.at,
  })}`;
}

/**
 * Moves an application along the lifecycle table inside the caller's transaction, checking the
 * move, the actor's right to make it, the client's version, (for submission) every submission
 * guard and the effects' own rules; then changes the status, the totals, the history and
 * whatever the effects add, together.
 */
export async function moveApplication(
  tx: SQL,
  deps: MoveDeps,
  origin: Origin,
  id: string,
  request: MoveRequest,
  nowMs: number,
): Promise<Application> {
  const at = new Date(nowMs).toISOString();
  const [ref] = (await tx`SELECT intake_id FROM applications WHERE id = ${id}`) as {
    intake_id: string;
  }[];
  if (!ref) throw notFound("Application");
  await lockIntake(tx, deps.dialect, ref.intake_id);
  const current =
    origin.actor.role === "system"
      ? await loadApplication(tx, id)
      : await loadVisible(tx, id, origin.actor as User);
  if (!current) throw notFound("Application");
  const from = current.status;
  assertTransition(from, request.to, moversFor(origin.actor, current.applicant.id));
  assertVersion(current.version, request.preconditions);
  if (request.to === "submitted") {
    const target = await findIntakeWithProgram(tx, current.intake.id, nowMs);
    if (!target) throw notFound("Intake");
    await assertSubmittable(tx, deps.checks, { applicationId: id, ...target, nowMs });
  }
  const move: Move = {
    tx,
    dialect: deps.dialect,
    origin,
    before: current,
    to: request.to,
    reason: request.reason,
    decision: request.decision ?? {},
    via: request.via ?? "transition",
    batchId: request.batchId ?? null,
    at,
    nowMs,
  };
  const extra = await deps.effects.prepare(move);
  const changed = await tx`UPDATE applications SET ${tx({
    ...extra,
    status: request.to,
    version: current.version + 1,
    updated_at: at,
    ...(request.to === "submitted" ? { submitted_at: at } : {}),
  })} WHERE id = ${id} AND version = ${current.version}`;
  if (changed.count !== 1) throw lostRace();
  await recordTransition(tx, id, from, request.to, { ...origin, reason: request.reason, at });
  await moveCount(
    tx,
    { programId: current.program.id, intakeId: current.intake.id },
    from,
    request.to,
  );
  const after = (await loadApplication(tx, id)) as Application;
  await deps.effects.settle(move, after);
  return after;
}

/** The origin of a request: its actor, and its client address when known. */
export const originOf = <A extends Actor>(actor: A, clientIp: string): Origin & { actor: A } => ({
  actor,
  clientIp: clientIp === UNKNOWN_CLIENT ? null : clientIp,
});

/** Several features' effects as one: prepared and settled in the order given. */
export function combineEffects(...all: TransitionEffects[]): TransitionEffects {
  return {
    async prepare(move) {
      const columns: Record<string, string | number | null> = {};
      for (const effects of all) Object.assign(columns, await effects.prepare(move));
      return columns;
    },
    async settle(move, after) {
      for (const effects of all) await effects.settle(move, after);
    },
  };
}

/** The decision fields of a request body (offer deadline, conditions, waitlist position). */
export const decisionOf = (body: DecisionInput): DecisionInput => ({
  respondBy: body.respondBy,
  conditions: body.conditions,
  waitlistPosition: body.waitlistPosition,
});
