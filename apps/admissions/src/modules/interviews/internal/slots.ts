import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { type Dialect, forUpdateOf, toIso } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import { isStaff, type User } from "../../users/model.ts";
import { loadApplication, recordAudit } from "../../workflow/service.ts";
import type { Interview, Reschedule, SlotCreate } from "../model.ts";
import {
  findInterview,
  type InterviewRow,
  panelClashes,
  panelOf,
  toInterviews,
} from "../queries.ts";
import { type InterviewsDeps, loadInterview, parseMailbox, type UserOrigin } from "./deps.ts";
import { enqueueInterviewEmail } from "./emails.ts";
import { interviewEvent } from "./events.ts";

/** Exactly one of a place and a link (422 otherwise); `fallback` when neither is given. */
function whereOf(
  body: { location?: string; meetingUrl?: string },
  fallback: { location: string | null; meetingUrl: string | null } | null,
) {
  const location = body.location?.trim() || null;
  const meetingUrl = body.meetingUrl ?? null;
  if (location && meetingUrl) throw invalidField("/body", "give location or meetingUrl, not both");
  if (!location && !meetingUrl) {
    if (fallback) return fallback;
    throw invalidField("/body", "give location (in person) or meetingUrl (online)");
  }
  return { location, meetingUrl };
}

function timesOf(startsAt: string, minutes: number, nowMs: number) {
  const start = Date.parse(startsAt);
  if (!(start > nowMs)) throw invalidField("/body/startsAt", "must be in the future");
  return { startsAt: isoAt(start), endsAt: isoAt(start + minutes * 60_000) };
}

/**
 * 409 INTERVIEW_CLASH naming who is busy and with which interview. The panel members' rows are
 * locked first (PostgreSQL; in id order, so two bookings cannot deadlock): two admins booking
 * the same person at once take turns, and the second sees the first's interview.
 */
async function assertNoClash(
  tx: SQL,
  dialect: Dialect,
  panel: string[],
  times: { startsAt: string; endsAt: string },
  exceptId: string | null,
) {
  await tx`SELECT u.id FROM users u WHERE u.id IN ${tx(panel)}
    ORDER BY u.id${forUpdateOf(tx, dialect, "u")}`;
  const clashes = await panelClashes(tx, panel, times.startsAt, times.endsAt, exceptId);
  if (clashes.length) {
    throw problem("INTERVIEW_CLASH", {
      detail: `${clashes.length === 1 ? "A panel member is" : "Panel members are"} already on an interview at that time`,
      extensions: { clashes },
    });
  }
}

/** The panel must be active staff accounts (422 naming the first that is not). */
async function assertPanel(tx: SQL, panel: string[]) {
  const staff = (await tx`SELECT id FROM users WHERE id IN ${tx(panel)}
    AND role IN ('reviewer', 'admin') AND active = ${true}`) as { id: string }[];
  const found = new Set(staff.map((row) => row.id));
  const index = panel.findIndex((id) => !found.has(id));
  if (index >= 0) throw invalidField(`/body/panel/${index}`, "is not an active staff account");
}

export const showInterview = async (tx: SQL, row: InterviewRow, viewer: User) =>
  (await toInterviews(tx, [row], isStaff(viewer.role)))[0] as Interview;

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
    await tx`INSERT INTO interviews ${tx({
      id,
      status: "open",
      starts_at: times.startsAt,
      ends_at: times.endsAt,
      location: where.location,
      meeting_url: where.meetingUrl,
      sequence: 0,
      created_by: origin.actor.id,
      created_at: at,
      updated_at: at,
    })}`;
    for (const userId of body.panel) {
      await tx`INSERT INTO interview_panel ${tx({
        interview_id: id,
        user_id: userId,
        starts_at: times.startsAt,
        ends_at: times.endsAt,
        active: true,
      })}`;
    }
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
    return showInterview(tx, (await findInterview(tx, id)) as InterviewRow, origin.actor);
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
    const panel = await panelOf(tx, id);
    await assertNoClash(tx, deps.db.dialect, panel, times, id);
    const invited = row.application_id !== null;
    await tx`UPDATE interviews SET ${tx({
      starts_at: times.startsAt,
      ends_at: times.endsAt,
      location: where.location,
      meeting_url: where.meetingUrl,
      status: invited ? "invited" : "open",
      sequence: Number(row.sequence) + 1,
      updated_at: at,
    })} WHERE id = ${id}`;
    await tx`UPDATE interview_panel SET starts_at = ${times.startsAt}, ends_at = ${times.endsAt}
      WHERE interview_id = ${id}`;
    const after = (await findInterview(tx, id)) as InterviewRow;
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

export const closed = (why: string) =>
  problem("INTERVIEW_CLOSED", { detail: `The interview is ${why}` });
