import type { Application, Move } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";
import { parseMailbox } from "./deps.ts";
import { enqueueInterviewEmail } from "./emails.ts";
import { interviewEvent } from "./events.ts";
import { findInterview, type InterviewRow } from "./queries.ts";

/** While the application is in one of these, its interviews stand. */
const INTERVIEWING = new Set(["under_review", "interviewing"]);

/**
 * An application that leaves the review (withdrawn, decided, erased) has no use for interviews
 * still to come: they are cancelled in the move's transaction, the panel freed, and the
 * applicant sent the calendar's CANCEL. Interviews already held stay as they are (their scores
 * are part of the record).
 */
export async function cancelUpcoming(move: Move, after: Application, mailFrom: string) {
  if (INTERVIEWING.has(after.status)) return;
  const { tx, at } = move;
  const ids = (await tx`SELECT id FROM interviews WHERE application_id = ${after.id}
    AND status IN ('invited', 'confirmed', 'reschedule_requested')
    AND starts_at > ${at}`) as { id: string }[];
  for (const { id } of ids) {
    const reason = `The application is ${after.status.replaceAll("_", " ")}`;
    await tx`UPDATE interviews SET status = 'cancelled', sequence = sequence + 1,
      cancel_reason = ${reason}, updated_at = ${at} WHERE id = ${id}`;
    await tx`UPDATE interview_panel SET active = ${false} WHERE interview_id = ${id}`;
    const row = (await findInterview(tx, id)) as InterviewRow;
    await enqueueInterviewEmail(tx, "cancelled", row, after, parseMailbox(mailFrom), at);
    await interviewEvent(
      tx,
      "interview.cancelled",
      { id, applicationId: after.id },
      { status: "cancelled", by: "application moved" },
      at,
    );
    await recordAudit(
      tx,
      move.origin,
      {
        action: "interview.cancelled",
        applicationId: after.id,
        subject: { type: "interview", id },
        details: { reason, via: "application moved" },
      },
      at,
    );
  }
}
