import type { SQL } from "bun";
import { toIso } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { notFound, problem } from "../../problems.ts";
import { isConflicted } from "../review/service.ts";
import { isStaff, type User } from "../users/model.ts";
import type { Application, TransitionEffects } from "../workflow/model.ts";
import {
  blinderFor,
  loadApplication,
  loadVisible,
  moveApplication,
  recordAudit,
} from "../workflow/service.ts";
import {
  type InterviewsDeps,
  loadInterview,
  parseMailbox,
  type UserOrigin,
} from "./internal/deps.ts";
import { cancelUpcoming } from "./internal/effects.ts";
import { enqueueInterviewEmail, interviewCalendar } from "./internal/emails.ts";
import { interviewEvent } from "./internal/events.ts";
import {
  assertInvitable,
  assertOpenSlot,
  cancelRow,
  LIVE,
  markInvited,
  ownUpcoming,
} from "./internal/invitations.ts";
import { findInterview, type InterviewRow, panelClashes, panelOf } from "./internal/queries.ts";
import { interviewsFor } from "./internal/read.ts";
import { scorableBy, writeScore } from "./internal/scores.ts";
import {
  assertNoClash,
  assertPanel,
  closed,
  insertSlot,
  moveSlot,
  showInterview,
  timesOf,
  whereOf,
} from "./internal/slots.ts";
import type {
  Clashes,
  ClashQuery,
  Interview,
  InterviewQuery,
  Invite,
  Note,
  Reschedule,
  ScoreBody,
  SlotCreate,
} from "./model.ts";

/*
 * Interviews (issue 19): slots with a panel, an application invited to one (which moves it to
 * interviewing), the applicant's confirmation, reschedule request or cancellation, emails with
 * an iCalendar attachment, and the panel's scores, shown beside the review's weighted total.
 */

export type { InterviewsDeps };

const current = async (tx: SQL, id: string) => (await findInterview(tx, id)) as InterviewRow;

/**
 * An application that leaves the review (withdrawn, decided, erased) has its interviews still
 * to come cancelled in the move's transaction (internal/effects.ts).
 */
export const interviewEffects = (mailFrom: string): TransitionEffects => ({
  prepare: async () => ({}),
  settle: (move, after) => cancelUpcoming(move, after, mailFrom),
});

/**
 * One interview: staff any (403 CONFLICT_OF_INTEREST for one who declared a conflict with its
 * application, as for its reviews), an applicant only their own.
 */
export const getInterview = (deps: InterviewsDeps, viewer: User, id: string) =>
  deps.db.run(async (sql) => {
    const row = await loadInterview(sql, id, viewer);
    if (
      isStaff(viewer.role) &&
      row.application_id &&
      (await isConflicted(sql, row.application_id, viewer.id))
    ) {
      throw problem("CONFLICT_OF_INTEREST", {
        detail: "You declared a conflict of interest with this application",
      });
    }
    return showInterview(sql, row, viewer);
  });

/**
 * Who of a panel is busy at a time, without booking anything: the same overlap the booking
 * checks (internal/queries.ts panelClashes), so the admin's form can warn before saving. The
 * booking itself still checks again under its locks.
 */
export const findClashes = (deps: InterviewsDeps, query: ClashQuery): Promise<Clashes> =>
  deps.db.run(async (sql) => {
    const start = Date.parse(query.startsAt);
    const end = start + query.durationMinutes * 60_000;
    const panel = [...new Set(query.panel.split(","))];
    const exceptId = query.exceptId ?? null;
    return { clashes: await panelClashes(sql, panel, isoAt(start), isoAt(end), exceptId) };
  });

/**
 * The interview as a calendar file to import (METHOD:PUBLISH), for the invited applicant (and
 * staff): the same event as the emails' attachment. Not for a slot nobody is invited to, nor
 * once cancelled (409 INTERVIEW_CLOSED: the CANCEL went out by email). Staff are held to what
 * `getInterview` holds them to: a conflict of interest is refused, and a reviewer of a blind
 * programme gets the event without its attendee (the applicant's name and address).
 */
export const calendarFile = (deps: InterviewsDeps, viewer: User, id: string) =>
  deps.db.run(async (sql) => {
    const row = await loadInterview(sql, id, viewer);
    if (!row.application_id)
      throw problem("INTERVIEW_NOT_ALLOWED", { detail: "Nobody is invited to this slot yet" });
    if (row.status === "cancelled") {
      throw problem("INTERVIEW_CLOSED", { detail: "This interview is cancelled" });
    }
    if (isStaff(viewer.role) && (await isConflicted(sql, row.application_id, viewer.id))) {
      throw problem("CONFLICT_OF_INTEREST", {
        detail: "You declared a conflict of interest with this application",
      });
    }
    const application = await loadApplication(sql, row.application_id);
    if (!application) throw notFound("Interview");
    const shown = (await blinderFor(sql, viewer))(application);
    const at = isoAt(deps.now());
    return interviewCalendar(row, shown, parseMailbox(deps.mailFrom), at, "PUBLISH", {
      attendee: shown === application,
    });
  });

/** Interviews by start time: staff's filter, or the applicant's own. */
export const listInterviews = (deps: InterviewsDeps, viewer: User, query: InterviewQuery) =>
  deps.db.run((sql) => interviewsFor(sql, viewer, query));

/** An admin opens a slot: a time, a place or a link, and a panel none of whom is busy then. */
export function createSlot(
  deps: InterviewsDeps,
  origin: UserOrigin,
  body: SlotCreate,
): Promise<Interview> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const times = timesOf(body.startsAt, body.durationMinutes, nowMs);
  const where = whereOf(body, null);
  return deps.db.transaction(async (tx) => {
    await assertPanel(tx, body.panel);
    await assertNoClash(tx, deps.db.dialect, body.panel, times, null);
    const id = newId();
    await insertSlot(tx, id, times, where, body.panel, origin.actor.id, at);
    await recordAudit(
      tx,
      origin,
      {
        action: "interview.created",
        subject: { type: "interview", id },
        details: { ...times, panel: body.panel },
      },
      at,
    );
    return showInterview(tx, await current(tx, id), origin.actor);
  });
}

/**
 * An admin moves an interview to a new time (and place or link). An invited applicant is sent
 * the same calendar event with a higher SEQUENCE and must confirm again.
 */
export function rescheduleInterview(
  deps: InterviewsDeps,
  origin: UserOrigin,
  id: string,
  body: Reschedule,
): Promise<Interview> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const row = await loadInterview(tx, id, origin.actor);
    if (row.status === "cancelled") throw closed("cancelled");
    const minutes =
      body.durationMinutes ??
      Math.round((Date.parse(toIso(row.ends_at)) - Date.parse(toIso(row.starts_at))) / 60_000);
    const times = timesOf(body.startsAt, minutes, nowMs);
    const where = whereOf(body, { location: row.location, meetingUrl: row.meeting_url });
    await assertNoClash(tx, deps.db.dialect, await panelOf(tx, id), times, id);
    await moveSlot(tx, row, times, where, at);
    const after = await current(tx, id);
    await interviewEvent(
      tx,
      "interview.rescheduled",
      { id, applicationId: row.application_id },
      { status: after.status, startsAt: times.startsAt, endsAt: times.endsAt },
      at,
    );
    if (row.application_id) {
      const application = await loadApplication(tx, row.application_id);
      if (application) {
        const organizer = parseMailbox(deps.mailFrom);
        await enqueueInterviewEmail(tx, "rescheduled", after, application, organizer, at);
      }
    }
    await recordAudit(
      tx,
      origin,
      {
        action: "interview.rescheduled",
        applicationId: row.application_id,
        subject: { type: "interview", id },
        details: { from: toIso(row.starts_at), ...times, sequence: Number(after.sequence) },
      },
      at,
    );
    return showInterview(tx, after, origin.actor);
  });
}

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
    assertOpenSlot(await loadInterview(tx, id, origin.actor), nowMs);
    let application = await loadVisible(tx, body.applicationId, origin.actor);
    await assertInvitable(tx, application, id);
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
    await markInvited(tx, id, application.id, at);
    const after = await current(tx, id);
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
    return showInterview(tx, await current(tx, id), origin.actor);
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
    return showInterview(tx, await current(tx, id), origin.actor);
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
    await cancelRow(
      tx,
      row,
      {
        cancelReason: staff ? reason : null,
        applicantNote: staff ? row.applicant_note : reason,
      },
      at,
    );
    await interviewEvent(
      tx,
      "interview.cancelled",
      { id, applicationId: row.application_id },
      { status: "cancelled", by: staff ? "staff" : "applicant" },
      at,
    );
    const after = await current(tx, id);
    const application: Application | null =
      row.application_id && LIVE.has(row.status)
        ? await loadApplication(tx, row.application_id)
        : null;
    if (application) {
      const organizer = parseMailbox(deps.mailFrom);
      await enqueueInterviewEmail(tx, "cancelled", after, application, organizer, at);
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

/**
 * A panel member scores the interview once it has started, on the program rubric's scale, with
 * an optional comment; saving again replaces their score. The mean of the panel's scores is
 * shown beside the reviews' weighted total (GET …/reviews/).
 */
export function saveInterviewScore(
  deps: InterviewsDeps,
  origin: UserOrigin,
  id: string,
  body: ScoreBody,
): Promise<Interview> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const panelist = origin.actor;
  return deps.db.transaction(async (tx) => {
    const row = await loadInterview(tx, id, panelist);
    const application = await scorableBy(tx, row, panelist, body, nowMs);
    await writeScore(tx, id, panelist.id, body, at);
    await recordAudit(
      tx,
      origin,
      {
        action: "interview.scored",
        applicationId: application.id,
        subject: { type: "interview", id },
        details: { score: body.score },
      },
      at,
    );
    return showInterview(tx, await current(tx, id), panelist);
  });
}
