import type { SQL } from "bun";
import { isUniqueViolation, toIso } from "../../../db/dialect.ts";
import { notFound, problem } from "../../../problems.ts";
import type { Application } from "../../workflow/model.ts";
import type { InterviewStatus } from "../model.ts";
import { loadInterview, type UserOrigin } from "./deps.ts";
import { type InterviewRow, panelOf } from "./queries.ts";
import { closed } from "./slots.ts";

/* An interview's invitation and what the invited applicant does with it, as rules and rows. */

/** Applications in these statuses may be invited; under_review moves on to interviewing. */
const INVITABLE = new Set(["under_review", "interviewing"]);
/** An interview the applicant is still to attend. */
export const LIVE: ReadonlySet<InterviewStatus> = new Set([
  "invited",
  "confirmed",
  "reschedule_requested",
]);

const alreadyScheduled = () =>
  problem("INTERVIEW_ALREADY_SCHEDULED", {
    detail: "The application already has an interview; cancel or reschedule that one",
  });

/** A slot still open, in the future (409 otherwise). */
export function assertOpenSlot(row: InterviewRow, nowMs: number): void {
  if (row.status !== "open") {
    throw problem("INTERVIEW_NOT_OPEN", {
      detail: `The slot is ${row.status === "cancelled" ? "cancelled" : "taken"}; open another`,
    });
  }
  if (Date.parse(toIso(row.starts_at)) <= nowMs) throw closed("in the past");
}

/**
 * An application that may be invited to the slot `id`: under review or interviewing, with no
 * interview still to come, and no panel member who declared a conflict with it (409).
 */
export async function assertInvitable(
  tx: SQL,
  application: Application,
  id: string,
): Promise<void> {
  if (!INVITABLE.has(application.status)) {
    throw problem("INTERVIEW_NOT_ALLOWED", {
      detail: `A ${application.status} application cannot be invited (under_review or interviewing only)`,
    });
  }
  const [live] = await tx`SELECT id FROM interviews WHERE application_id = ${application.id}
    AND status IN ('invited', 'confirmed', 'reschedule_requested')`;
  if (live) throw alreadyScheduled();
  const panel = await panelOf(tx, id);
  const [conflicted] = await tx`SELECT reviewer_id FROM review_conflicts
    WHERE application_id = ${application.id} AND reviewer_id IN ${tx(panel)}`;
  if (conflicted) {
    throw problem("REVIEWER_CONFLICTED", {
      detail: "A panel member declared a conflict of interest with this application",
      extensions: { userId: (conflicted as { reviewer_id: string }).reviewer_id },
    });
  }
}

/** The slot given to the application (the partial unique index settles two racing). */
export async function markInvited(
  tx: SQL,
  id: string,
  applicationId: string,
  at: string,
): Promise<void> {
  try {
    await tx`UPDATE interviews SET ${tx({
      application_id: applicationId,
      status: "invited",
      updated_at: at,
    })} WHERE id = ${id} AND status = 'open'`;
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyScheduled();
    throw error;
  }
}

/** The invited applicant's own interview, still to come; anyone else's is a 404. */
export async function ownUpcoming(tx: SQL, origin: UserOrigin, id: string, nowMs: number) {
  const row = await loadInterview(tx, id, origin.actor);
  if (row.applicant_id !== origin.actor.id) throw notFound("Interview");
  if (row.status === "cancelled") throw closed("cancelled");
  if (Date.parse(toIso(row.starts_at)) <= nowMs) throw closed("in the past");
  return row;
}

/** Cancelled, with a higher SEQUENCE (the calendar's CANCEL), and the panel free again. */
export async function cancelRow(
  tx: SQL,
  row: InterviewRow,
  note: { cancelReason: string | null; applicantNote: string | null },
  at: string,
): Promise<void> {
  await tx`UPDATE interviews SET ${tx({
    status: "cancelled",
    sequence: Number(row.sequence) + 1,
    cancel_reason: note.cancelReason,
    applicant_note: note.applicantNote,
    updated_at: at,
  })} WHERE id = ${row.id}`;
  await tx`UPDATE interview_panel SET active = ${false} WHERE interview_id = ${row.id}`;
}
