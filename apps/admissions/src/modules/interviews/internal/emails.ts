import type { SQL } from "bun";
import { toIso } from "../../../db/dialect.ts";
import { enqueueEmail } from "../../outbox/service.ts";
import type { Application } from "../../workflow/model.ts";
import { type CalendarEvent, calendarOf } from "./ics.ts";
import type { InterviewRow } from "./queries.ts";

export type InterviewEmailKind = "invited" | "rescheduled" | "cancelled";

const when = (row: InterviewRow) => {
  const start = new Date(toIso(row.starts_at));
  const minutes = Math.round((Date.parse(toIso(row.ends_at)) - start.getTime()) / 60_000);
  const day = start.toLocaleString("en-GB", {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: "UTC",
  });
  return `${day} UTC (${minutes} minutes)`;
};

const where = (row: InterviewRow) =>
  row.meeting_url ? `Online: ${row.meeting_url}` : `In person: ${row.location ?? ""}`;

const OPENING: Record<InterviewEmailKind, (what: string) => string> = {
  invited: (what) => `You are invited to an interview for your application to ${what}.`,
  rescheduled: (what) => `Your interview for ${what} has a new time.`,
  cancelled: (what) => `Your interview for ${what} is cancelled.`,
};

const CLOSING: Record<InterviewEmailKind, string> = {
  invited:
    "Please confirm in your applicant portal, or ask there for another time. The attached calendar invitation adds the interview to your calendar.",
  rescheduled:
    "Please confirm the new time in your applicant portal. The attached calendar invitation replaces the earlier one.",
  cancelled: "The attached calendar update removes the interview from your calendar.",
};

/**
 * The interview as one calendar event: the same UID and SEQUENCE in the emails and in the file
 * the portal downloads, so a calendar holding either replaces it with the other.
 */
export function interviewCalendar(
  row: InterviewRow,
  application: Application,
  organizer: { name: string; email: string },
  at: string,
  method: CalendarEvent["method"],
  /** Without the attendee: the file a blind reviewer downloads names nobody. */
  { attendee = true }: { attendee?: boolean } = {},
): string {
  const what = `${application.program.name} (${application.intake.term})`;
  return calendarOf({
    method,
    uid: `${row.id}@admissions`,
    sequence: Number(row.sequence),
    stamp: at,
    start: toIso(row.starts_at),
    end: toIso(row.ends_at),
    summary: `Interview: ${application.program.name}`,
    description: `Admissions interview for ${what}. Application reference: ${application.id}`,
    location: row.meeting_url ?? row.location ?? "",
    url: row.meeting_url,
    organizer,
    attendee: attendee
      ? { name: application.applicant.fullName, email: application.applicant.email }
      : undefined,
  });
}

/**
 * The applicant's email about their interview, with the .ics in the outbox beside it, in the
 * caller's transaction. Times are given in UTC in the text; the calendar shows them in the
 * reader's own time zone.
 */
export async function enqueueInterviewEmail(
  tx: SQL,
  kind: InterviewEmailKind,
  row: InterviewRow,
  application: Application,
  organizer: { name: string; email: string },
  at: string,
): Promise<void> {
  const what = `${application.program.name} (${application.intake.term})`;
  const details = kind === "cancelled" ? "" : `\n\nWhen: ${when(row)}\nWhere: ${where(row)}`;
  const reason =
    kind === "cancelled" && row.cancel_reason ? `\n\nReason: ${row.cancel_reason}` : "";
  const body = `Dear ${application.applicant.fullName},\n\n${OPENING[kind](what)}${details}${reason}\n\n${CLOSING[kind]}\n\nApplication reference: ${application.id}\n\nAdmissions Office`;
  const subject = {
    invited: `Interview invitation: ${application.program.name}`,
    rescheduled: `Interview rescheduled: ${application.program.name}`,
    cancelled: `Interview cancelled: ${application.program.name}`,
  }[kind];
  const method = kind === "cancelled" ? "CANCEL" : "REQUEST";
  const calendar = interviewCalendar(row, application, organizer, at, method);
  await enqueueEmail(
    tx,
    {
      applicationId: application.id,
      event: `interview_${kind}`,
      to: application.applicant.email,
      subject,
      body,
      attachment: {
        name: kind === "cancelled" ? "interview-cancelled.ics" : "interview.ics",
        type: `text/calendar; charset=utf-8; method=${method}`,
        content: calendar,
      },
    },
    at,
  );
}
