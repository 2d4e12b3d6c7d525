import { HttpProblem } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { notFound } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import {
  type Application,
  type ApplicationStatus,
  type Move,
  type MoveDeps,
  type MoveRequest,
  type Origin,
  SYSTEM_ACTOR,
} from "../model.ts";
import { loadApplication, loadVisible, lockIntake, recordTransition } from "../queries.ts";
import { moveCount } from "./counts.ts";
import { assertTransition, moversFor } from "./lifecycle.ts";
import { assertVersion, lostRace } from "./versions.ts";

/**
 * Moves an application along the lifecycle table inside the caller's transaction, checking the
 * move, the actor's right to make it, the client's version and the effects' own rules (the
 * submission guards among them); then changes the status, the totals, the history and
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
  const move: Move = {
    tx,
    dialect: deps.dialect,
    origin,
    before: current,
    to: request.to,
    reason: request.reason,
    reasonCode: request.reasonCode ?? null,
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
  await recordTransition(tx, id, from, request.to, {
    ...origin,
    reason: request.reason,
    reasonCode: move.reasonCode,
    at,
  });
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

/**
 * Moves an application as the system when one of its deadlines has passed (an offer not
 * answered, a condition not met), in a transaction of its own. Safe with several replicas and
 * repeated passes: the move re-reads the status under the intake's lock, so an application
 * that moved meanwhile (ILLEGAL_TRANSITION, and any other refusal of the move) is left as it
 * is and `false` returned. Any other failure is thrown.
 */
export async function moveOnDeadline(
  deps: { db: Db; move: MoveDeps },
  id: string,
  to: ApplicationStatus,
  reason: string,
  nowMs: number,
): Promise<boolean> {
  try {
    await deps.db.transaction((tx) =>
      moveApplication(
        tx,
        deps.move,
        { actor: SYSTEM_ACTOR, clientIp: null },
        id,
        { to, reason, preconditions: [], via: "expiry" },
        nowMs,
      ),
    );
    return true;
  } catch (error) {
    if (error instanceof HttpProblem) return false;
    throw error;
  }
}
