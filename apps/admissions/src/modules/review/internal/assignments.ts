import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { forUpdateOf, toBool } from "../../../db/dialect.ts";
import { problem } from "../../../problems.ts";
import { enqueueEmail } from "../../outbox/service.ts";
import type { Application } from "../../workflow/model.ts";
import { isConflicted } from "./conflict-of-interest.ts";

/* Which reviewers an application has: the program's pool, the rotation, the reviewer's email. */

/** Applications take reviewers while submitted or under review, not once decided. */
const ASSIGNABLE = new Set(["submitted", "under_review"]);

export function assertAssignable(application: Application): void {
  if (!ASSIGNABLE.has(application.status)) {
    throw problem("ASSIGNMENT_CLOSED", {
      detail: `A ${application.status} application takes no reviewers (submitted or under_review only)`,
    });
  }
}

export type PoolMember = { reviewer_id: string; last_assigned_at: unknown; active: unknown };

/**
 * The program's pool, locked (PostgreSQL) so that concurrent round-robin assignments take
 * turns and each sees where the last one left the rotation.
 */
export async function lockedPool(tx: SQL, db: Db, programId: string): Promise<PoolMember[]> {
  return (await tx`SELECT pr.reviewer_id, pr.last_assigned_at, u.active FROM program_reviewers pr
    JOIN users u ON u.id = pr.reviewer_id
    WHERE pr.program_id = ${programId}
    ORDER BY pr.reviewer_id${forUpdateOf(tx, db.dialect, "pr")}`) as PoolMember[];
}

async function eligible(tx: SQL, applicationId: string, reviewerId: string) {
  if (await isConflicted(tx, applicationId, reviewerId)) return "conflicted";
  const [assigned] = await tx`SELECT 1 AS yes FROM review_assignments
    WHERE application_id = ${applicationId} AND reviewer_id = ${reviewerId}`;
  return assigned ? "assigned" : "ok";
}

/**
 * Chooses the reviewer: the one named (who must be an active member of the program's pool,
 * not conflicted, not already assigned), or round-robin: the eligible member assigned longest
 * ago (never assigned first).
 */
export async function chooseReviewer(
  tx: SQL,
  db: Db,
  applicationId: string,
  programId: string,
  wanted: string | undefined,
): Promise<string> {
  const pool = await lockedPool(tx, db, programId);
  if (wanted !== undefined) {
    const member = pool.find((m) => m.reviewer_id === wanted);
    if (!member || !toBool(member.active)) {
      throw problem("REVIEWER_NOT_IN_POOL", {
        detail: "Only active reviewers of the application's program can be assigned",
      });
    }
    const state = await eligible(tx, applicationId, wanted);
    if (state === "conflicted") {
      throw problem("REVIEWER_CONFLICTED", {
        detail: "This reviewer declared a conflict of interest with the application",
      });
    }
    if (state === "assigned") {
      throw problem("ALREADY_ASSIGNED", { detail: "This reviewer is already assigned" });
    }
    return wanted;
  }
  const rotation = pool
    .filter((m) => toBool(m.active))
    .sort((a, b) => {
      const [x, y] = [a.last_assigned_at, b.last_assigned_at].map((v) =>
        v === null ? "" : new Date(v as string).toISOString(),
      );
      return (x ?? "").localeCompare(y ?? "") || a.reviewer_id.localeCompare(b.reviewer_id);
    });
  for (const member of rotation) {
    if ((await eligible(tx, applicationId, member.reviewer_id)) === "ok") return member.reviewer_id;
  }
  throw problem("NO_REVIEWER_AVAILABLE", {
    detail: "No active reviewer of this program is free to take the application",
  });
}

/** The assignment row, and the reviewer's turn in the program's rotation moved to now. */
export async function takeAssignment(
  tx: SQL,
  application: Application,
  reviewerId: string,
  assignedBy: string,
  at: string,
): Promise<void> {
  await tx`INSERT INTO review_assignments ${tx({
    application_id: application.id,
    reviewer_id: reviewerId,
    assigned_by: assignedBy,
    assigned_at: at,
  })}`;
  await tx`UPDATE program_reviewers SET last_assigned_at = ${at}
    WHERE program_id = ${application.program.id} AND reviewer_id = ${reviewerId}`;
}

/**
 * The reviewer hears of the assignment by email, written with it (the outbox): the program,
 * the intake and the reference, nothing of the applicant beyond what the staff console shows.
 */
export async function notifyReviewer(
  tx: SQL,
  reviewerId: string,
  application: Application,
  at: string,
) {
  const [reviewer] = (await tx`SELECT email, full_name FROM users WHERE id = ${reviewerId}`) as {
    email: string;
    full_name: string;
  }[];
  if (!reviewer) return;
  const what = `${application.program.name} (${application.intake.term})`;
  await enqueueEmail(
    tx,
    {
      // Not filed under the application: its emails are the applicant's correspondence.
      applicationId: null,
      event: "reviewer_assigned",
      to: reviewer.email,
      subject: `New application to review: ${what}`,
      body: `Dear ${reviewer.full_name},\n\nAn application to ${what} has been assigned to you for review. You find it in your queue in the staff console.\n\nApplication reference: ${application.id}\n\nAdmissions Office`,
    },
    at,
  );
}
