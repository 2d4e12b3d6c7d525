import { HttpProblem, type SharedStore } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { isoAt } from "../../../lib/ids.ts";
import { notFound, problem } from "../../../problems.ts";
import { sendPasswordResetLink } from "../../account/service.ts";
import { endSignInsOf } from "../../auth/service.ts";
import type { User } from "../../users/model.ts";
import { toUser, type UserRow } from "../../users/service.ts";
import type { Origin } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";

export type StaffResetDeps = { db: Db; store: SharedStore; now: () => number; portalUrl: string };

/**
 * An admin makes a staff member choose a new password: a reset link (30 minutes) is emailed to
 * them, and every sign-in of theirs ends at once. Ending them is the point when the reason is
 * a lost laptop, a suspected compromise or a departure, and costs nothing when it is a
 * forgotten password (no sign-in to lose). The password itself keeps working until the link is
 * used: an admin who believes it leaked also deactivates the account (PATCH active: false).
 */
export async function resetStaffPassword(
  deps: StaffResetDeps,
  origin: Origin & { actor: User },
  id: string,
): Promise<string> {
  if (id === origin.actor.id) {
    throw problem("CANNOT_CHANGE_OWN_ACCOUNT", {
      detail: "Change your own password with POST /api/v1/account/password/",
    });
  }
  const nowMs = deps.now();
  const user = await deps.db.transaction(async (tx) => {
    const [row] = (await tx`SELECT * FROM users
      WHERE id = ${id} AND role IN ('reviewer', 'admin')`) as UserRow[];
    if (!row) throw notFound("Staff account");
    const user = toUser(row);
    if (!user.active) {
      throw new HttpProblem("CONFLICT", {
        detail: "The account is deactivated: reactivate it before resetting its password",
      });
    }
    await sendPasswordResetLink(tx, deps, user, "admin", nowMs);
    await recordAudit(
      tx,
      origin,
      {
        action: "staff.password_reset",
        subject: { type: "user", id },
        details: { email: user.email },
      },
      isoAt(nowMs),
    );
    return user;
  });
  const ended = await endSignInsOf(deps, id, null);
  return `A reset link was emailed to ${user.email}; ${ended} sign-in(s) ended`;
}
