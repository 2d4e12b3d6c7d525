import type { SQL } from "bun";
import { isoAt } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import { type Origin, SYSTEM_ACTOR } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";
import { type DataRightsDeps, subjectOf } from "./deps.ts";
import { enqueueDataRightsEmail } from "./emails.ts";
import { eraseApplicant } from "./erase.ts";

export const notPending = () =>
  problem("DATA_REQUEST_NOT_PENDING", { detail: "This request is no longer pending" });

export type Completion = {
  id: string;
  user: Pick<User, "id" | "email">;
  /** Withdraws the open applications: the applicant, or the admin who approved. */
  origin: Origin;
  decidedBy: string | null;
  unusable: string;
  nowMs: number;
};

/** The erasure itself, the request completed, the audit entry and the last email. */
export async function completeErasure(
  deps: DataRightsDeps,
  tx: SQL,
  c: Completion,
): Promise<string[]> {
  const at = isoAt(c.nowMs);
  const retainUntil = new Date(c.nowMs);
  retainUntil.setUTCFullYear(retainUntil.getUTCFullYear() + deps.retentionYears);
  const outcome = await eraseApplicant(tx, deps.move, {
    userId: c.user.id,
    email: c.user.email,
    unusablePasswordHash: c.unusable,
    origin: c.origin,
    at,
    nowMs: c.nowMs,
  });
  const completed = await tx`UPDATE data_requests SET ${tx({
    status: "completed",
    decided_by: c.decidedBy,
    decided_at: at,
    completed_at: at,
    retain_until: retainUntil.toISOString(),
  })} WHERE id = ${c.id} AND status = 'pending'`;
  if (completed.count !== 1) throw notPending();
  // The system carried it out (or the admin who approved): no one's address is recorded.
  const auditOrigin: Origin = c.decidedBy ? c.origin : { actor: SYSTEM_ACTOR, clientIp: null };
  await recordAudit(
    tx,
    auditOrigin,
    {
      action: "data.erasure_completed",
      subject: subjectOf(c.user.id),
      details: {
        requestId: c.id,
        applicationsWithdrawn: outcome.applicationsWithdrawn,
        documentsDeleted: outcome.documentsDeleted,
      },
    },
    at,
  );
  // To the address as it was: the one email written after the erasure, so it is kept.
  await enqueueDataRightsEmail(tx, c.user.email, "erasure.completed", {
    at,
    portalUrl: deps.portalUrl,
    retainUntil: retainUntil.toISOString(),
  });
  return outcome.storageKeys;
}

/** After the commit: a failure leaves an unreferenced file (logged), never a row without one. */
export async function removeFiles(deps: DataRightsDeps, keys: string[]) {
  for (const key of keys) {
    await deps.storage.remove(key).catch((err: unknown) => {
      deps.logger.error("erased document file not removed", { storageKey: key, err });
    });
  }
}
