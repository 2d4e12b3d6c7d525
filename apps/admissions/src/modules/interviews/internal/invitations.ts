import type { SQL } from "bun";
import { isUniqueViolation, toIso } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { notFound, problem } from "../../../problems.ts";
import { isStaff } from "../../users/model.ts";
import type { Application } from "../../workflow/model.ts";
import {
  loadApplication,
  loadVisible,
  moveApplication,
  recordAudit,
} from "../../workflow/service.ts";
import type { Interview, InterviewStatus, Invite, Note } from "../model.ts";
import { findInterview, type InterviewRow, panelOf } from "../queries.ts";
import { type InterviewsDeps, loadInterview, parseMailbox, type UserOrigin } from "./deps.ts";
import { enqueueInterviewEmail } from "./emails.ts";
import { interviewEvent } from "./events.ts";
import { closed, showInterview } from "./slots.ts";

/** Applications in these statuses may be invited; under_review moves on to interviewing. */
const INVITABLE = new Set(["under_review", "interviewing"]);
/** An interview the applicant is still to attend. */
const LIVE: ReadonlySet<InterviewStatus> = new Set([
  "invited",
  "confirmed",
  "reschedule_requested",
]);

const alreadyScheduled = () =>
  problem("INTERVIEW_ALREADY_SCHEDULED", {
    detail: "The application already has an interview; cancel or reschedule that one",
  });

/**
 * An admin invites an application under review (or already interviewing) to an open slot in the
 * future. The application moves to interviewing, and the applicant is emailed the invitation
 * with its .ics, all in one transaction.
 */
export function inviteToInterview(
  deps: InterviewsDeps,
  origin: UserOrigin,
  id: string,
  body: Invite,
): Promise<Interview> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const row = await loadInterview(tx, id, origin.actor);
    if (row.status !== "open") {
      throw problem("INTERVIEW_NOT_OPEN", {
        detail: `The slot is ${row.status === "cancelled" ? "cancelled" : "taken"}; open another`,
      });
    }
    if (Date.parse(toIso(row.starts_at)) <= nowMs) throw closed("in the past");
    let application = await loadVisible(tx, body.applicationId, origin.actor);
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
    if (application.status === "under_review") {
      application = await moveApplication(
        tx,
        deps.move,
        origin,
        application.id,
        { to: "interviewing", reason: null, preconditions: [], via: "interview" },
        nowMs,
      );
    }
    try {
      await tx`UPDATE interviews SET ${tx({
        application_id: application.id,
        status: "invited",
        updated_at: at,
      })} WHERE id = ${id} AND status = 'open'`;
    } catch (error) {
      // The partial unique index settles two invitations of one application racing.
      if (isUniqueViolation(error)) throw alreadyScheduled();
      throw error;
    }
    const after = (await findInterview(tx, id)) as InterviewRow;
    await enqueueInterviewEmail(tx, "invited", after, application, parseMailbox(deps.mailFrom), at);
    await interviewEvent(
      tx,
      "interview.invited",
      { id, applicationId: application.id },
      { status: "invited", startsAt: toIso(after.starts_at), endsAt: toIso(after.ends_at) },
      at,
    );
    await recordAudit(
      tx,
      origin,
      {
        action: "interview.invited",
        applicationId: application.id,
        subject: { type: "interview", id },
        details: { startsAt: toIso(after.starts_at) },
      },
      at,
    );
    return showInterview(tx, after, origin.actor);
  });
}

/** The invited applicant's own interview, still to come; anyone else's is a 404. */
async function ownUpcoming(tx: SQL, origin: UserOrigin, id: string, nowMs: number) {
  const row = await loadInterview(tx, id, origin.actor);
  if (row.applicant_id !== origin.actor.id) throw notFound("Interview");
  if (row.status === "cancelled") throw closed("cancelled");
  if (Date.parse(toIso(row.starts_at)) <= nowMs) throw closed("in the past");
  return row;
}

/** The applicant confirms the time they were given (again after a reschedule). */
export function confirmInterview(deps: InterviewsDeps, origin: UserOrigin, id: string) {
  const nowMs = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await ownUpcoming(tx, origin, id, nowMs);
    if (row.status === "reschedule_requested") {
      throw problem("INTERVIEW_STATE_CONFLICT", {
        detail: "You asked for another time; wait for the new invitation",
        extensions: { status: row.status },
      });
    }
    if (row.status === "invited") {
      await tx`UPDATE interviews SET status = 'confirmed', updated_at = ${isoAt(nowMs)}
        WHERE id = ${id}`;
      await interviewEvent(
        tx,
        "interview.confirmed",
        { id, applicationId: row.application_id },
        { status: "confirmed" },
        isoAt(nowMs),
      );
    }
    return showInterview(tx, (await findInterview(tx, id)) as InterviewRow, origin.actor);
  });
}

/** The applicant asks for another time; an admin then reschedules (or cancels). */
export function requestReschedule(
  deps: InterviewsDeps,
  origin: UserOrigin,
  id: string,
  body: Note,
) {
  const nowMs = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await ownUpcoming(tx, origin, id, nowMs);
    if (row.status === "reschedule_requested") {
      throw problem("INTERVIEW_STATE_CONFLICT", {
        detail: "You already asked for another time",
        extensions: { status: row.status },
      });
    }
    await tx`UPDATE interviews SET ${tx({
      status: "reschedule_requested",
      applicant_note: body?.note?.trim() || null,
      updated_at: isoAt(nowMs),
    })} WHERE id = ${id}`;
    await interviewEvent(
      tx,
      "interview.reschedule_requested",
      { id, applicationId: row.application_id },
      { status: "reschedule_requested" },
      isoAt(nowMs),
    );
    return showInterview(tx, (await findInterview(tx, id)) as InterviewRow, origin.actor);
  });
}

/**
 * The applicant (their own) or an admin cancels. The panel is free again at that time; an
 * invited applicant is sent the calendar's CANCEL (a higher SEQUENCE of the same event). The
 * application stays interviewing: staff invite it again or move it back to under_review.
 */
export function cancelInterview(deps: InterviewsDeps, origin: UserOrigin, id: string, body: Note) {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const staff = isStaff(origin.actor.role);
    const row = staff
      ? await loadInterview(tx, id, origin.actor)
      : await ownUpcoming(tx, origin, id, nowMs);
    if (row.status === "cancelled") throw closed("cancelled");
    const reason = body?.note?.trim() || null;
    await tx`UPDATE interviews SET ${tx({
      status: "cancelled",
      sequence: Number(row.sequence) + 1,
      cancel_reason: staff ? reason : null,
      applicant_note: staff ? row.applicant_note : reason,
      updated_at: at,
    })} WHERE id = ${id}`;
    await tx`UPDATE interview_panel SET active = ${false} WHERE interview_id = ${id}`;
    await interviewEvent(
      tx,
      "interview.cancelled",
      { id, applicationId: row.application_id },
      { status: "cancelled", by: staff ? "staff" : "applicant" },
      at,
    );
    const after = (await findInterview(tx, id)) as InterviewRow;
    const application: Application | null =
      row.application_id && LIVE.has(row.status)
        ? await loadApplication(tx, row.application_id)
        : null;
    if (application) {
      await enqueueInterviewEmail(
        tx,
        "cancelled",
        after,
        application,
        parseMailbox(deps.mailFrom),
        at,
      );
    }
    if (staff) {
      await recordAudit(
        tx,
        origin,
        {
          action: "interview.cancelled",
          applicationId: row.application_id,
          subject: { type: "interview", id },
          details: { reason },
        },
        at,
      );
    }
    return showInterview(tx, after, origin.actor);
  });
}
