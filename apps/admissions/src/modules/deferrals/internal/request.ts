import { invalidField } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { notFound, problem } from "../../../problems.ts";
import { findIntakeWithProgram } from "../../catalog/service.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { MoveDeps, Origin } from "../../workflow/model.ts";
import { loadVisible, recordAudit } from "../../workflow/service.ts";
import type { Deferral, DeferralCreate } from "../model.ts";
import { deferralsOf, findDeferral, toDeferral } from "../queries.ts";

export type DeferralsDeps = { db: Db; now: () => number; move: MoveDeps };

/** An application's deferral requests: its applicant and staff. */
export const listDeferrals = (deps: DeferralsDeps, viewer: User, applicationId: string) =>
  deps.db.run(async (sql) => {
    await loadVisible(sql, applicationId, viewer);
    return { results: (await deferralsOf(sql, applicationId)).map(toDeferral) };
  });

/**
 * The applicant (or an admin for them) asks to move an accepted place to a later intake of the
 * same program. Staff approve or refuse it; nothing moves until then.
 */
export function requestDeferral(
  deps: DeferralsDeps,
  origin: Origin & { actor: User },
  applicationId: string,
  body: DeferralCreate,
): Promise<Deferral> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const application = await loadVisible(tx, applicationId, origin.actor);
    const staff = isStaff(origin.actor.role);
    if (!staff && application.applicant.id !== origin.actor.id) throw notFound("Application");
    if (application.status !== "accepted") {
      throw problem("DEFERRAL_NOT_ALLOWED", {
        detail: `Only an accepted place can be deferred (the application is ${application.status})`,
      });
    }
    const target = await findIntakeWithProgram(tx, body.toIntakeId, nowMs);
    const later =
      target &&
      target.program.id === application.program.id &&
      Date.parse(target.intake.deadline) > Date.parse(application.intake.deadline);
    if (!target || !later) {
      throw invalidField("/body/toIntakeId", "must be a later intake of the same program");
    }
    const [clash] = await tx`SELECT id FROM applications
      WHERE applicant_id = ${application.applicant.id} AND intake_id = ${target.intake.id}`;
    if (clash) {
      throw problem("DEFERRAL_CONFLICT", {
        detail: `The applicant already has an application for ${target.intake.term}`,
      });
    }
    const open = await deferralsOf(tx, applicationId);
    if (open.some((row) => row.status === "requested")) throw pendingAlready();
    const id = newId();
    // The unique index on open requests settles a race between two requests.
    try {
      await tx`INSERT INTO deferrals ${tx({
        id,
        application_id: applicationId,
        from_intake_id: application.intake.id,
        to_intake_id: target.intake.id,
        status: "requested",
        reason: body.reason?.trim() || null,
        requested_by: origin.actor.id,
        requested_at: at,
      })}`;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw pendingAlready();
    }
    if (staff) {
      await recordAudit(
        tx,
        origin,
        {
          action: "deferral.requested",
          applicationId,
          subject: { type: "deferral", id },
          details: { fromIntakeId: application.intake.id, toIntakeId: target.intake.id },
        },
        at,
      );
    }
    const created = await findDeferral(tx, applicationId, id);
    if (!created) throw notFound("Deferral");
    return toDeferral(created);
  });
}

const pendingAlready = () =>
  problem("DEFERRAL_PENDING", {
    detail: "This application already has a deferral request waiting for staff",
  });
