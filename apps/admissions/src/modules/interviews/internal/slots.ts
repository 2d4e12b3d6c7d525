import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { type Dialect, forUpdateOf } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { Interview } from "../model.ts";
import { type InterviewRow, panelClashes, toInterviews } from "./queries.ts";

/** Exactly one of a place and a link (422 otherwise); `fallback` when neither is given. */
export function whereOf(
  body: { location?: string; meetingUrl?: string },
  fallback: { location: string | null; meetingUrl: string | null } | null,
) {
  const location = body.location?.trim() || null;
  const meetingUrl = body.meetingUrl ?? null;
  if (location && meetingUrl)
    throw invalidField("/body", "give location or meetingUrl, not both", "notAllowed");
  if (!location && !meetingUrl) {
    if (fallback) return fallback;
    throw invalidField("/body", "give location (in person) or meetingUrl (online)", "required");
  }
  return { location, meetingUrl };
}

export function timesOf(startsAt: string, minutes: number, nowMs: number) {
  const start = Date.parse(startsAt);
  if (!(start > nowMs)) throw invalidField("/body/startsAt", "must be in the future", "future");
  return { startsAt: isoAt(start), endsAt: isoAt(start + minutes * 60_000) };
}

/**
 * 409 INTERVIEW_CLASH naming who is busy and with which interview. The panel members' rows are
 * locked first (PostgreSQL; in id order, so two bookings cannot deadlock): two admins booking
 * the same person at once take turns, and the second sees the first's interview.
 */
export async function assertNoClash(
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
      extensions: { clashes: clashes.map(({ userId, interviewId }) => ({ userId, interviewId })) },
    });
  }
}

/** The panel must be active staff accounts (422 naming the first that is not). */
export async function assertPanel(tx: SQL, panel: string[]) {
  const staff = (await tx`SELECT id FROM users WHERE id IN ${tx(panel)}
    AND role IN ('reviewer', 'admin') AND active = ${true}`) as { id: string }[];
  const found = new Set(staff.map((row) => row.id));
  const index = panel.findIndex((id) => !found.has(id));
  if (index >= 0)
    throw invalidField(`/body/panel/${index}`, "is not an active staff account", "notFound");
}

export const showInterview = async (tx: SQL, row: InterviewRow, viewer: User) =>
  (await toInterviews(tx, [row], isStaff(viewer.role)))[0] as Interview;

type Times = { startsAt: string; endsAt: string };
type Where = { location: string | null; meetingUrl: string | null };

/** A new open slot and its panel's bookings. */
export async function insertSlot(
  tx: SQL,
  id: string,
  times: Times,
  where: Where,
  panel: string[],
  createdBy: string,
  at: string,
): Promise<void> {
  await tx`INSERT INTO interviews ${tx({
    id,
    status: "open",
    starts_at: times.startsAt,
    ends_at: times.endsAt,
    location: where.location,
    meeting_url: where.meetingUrl,
    sequence: 0,
    created_by: createdBy,
    created_at: at,
    updated_at: at,
  })}`;
  for (const userId of panel) {
    await tx`INSERT INTO interview_panel ${tx({
      interview_id: id,
      user_id: userId,
      starts_at: times.startsAt,
      ends_at: times.endsAt,
      active: true,
    })}`;
  }
}

/** The interview and its panel's bookings at the new time; an invited one is to confirm again. */
export async function moveSlot(
  tx: SQL,
  row: InterviewRow,
  times: Times,
  where: Where,
  at: string,
): Promise<void> {
  await tx`UPDATE interviews SET ${tx({
    starts_at: times.startsAt,
    ends_at: times.endsAt,
    location: where.location,
    meeting_url: where.meetingUrl,
    status: row.application_id !== null ? "invited" : "open",
    sequence: Number(row.sequence) + 1,
    updated_at: at,
  })} WHERE id = ${row.id}`;
  await tx`UPDATE interview_panel SET starts_at = ${times.startsAt}, ends_at = ${times.endsAt}
    WHERE interview_id = ${row.id}`;
}

export const closed = (why: string) =>
  problem("INTERVIEW_CLOSED", { detail: `The interview is ${why}` });
