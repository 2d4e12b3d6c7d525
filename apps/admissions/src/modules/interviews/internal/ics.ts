/*
 * A small iCalendar (RFC 5545) writer for one event, as invitations (RFC 5546 iTIP) carry it:
 * METHOD:REQUEST for an invitation or a new time, METHOD:CANCEL when it is off. The same UID
 * every time (the interview's id) and a higher SEQUENCE on each change let a calendar replace
 * the event it holds instead of adding another. Written here rather than taken from a package:
 * the part we need is about 60 lines, and every rule it follows is tested (test/ics.test.ts).
 */

export type CalendarEvent = {
  /** REQUEST and CANCEL travel in emails (iTIP); PUBLISH is a file downloaded to import. */
  method: "REQUEST" | "CANCEL" | "PUBLISH";
  uid: string;
  sequence: number;
  /** When this version was written. */
  stamp: string;
  start: string;
  end: string;
  summary: string;
  description: string;
  location: string;
  url: string | null;
  organizer: { name: string; email: string };
  /** Absent from the file a blind reviewer downloads. */
  attendee?: { name: string; email: string };
};

/** TEXT values: backslash, semicolon and comma escaped, line breaks as `\n` (§3.3.11). */
export const escapeText = (text: string): string =>
  text
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");

/** A parameter value (CN=…): quoted, with the characters a quoted value cannot hold dropped. */
const paramValue = (text: string): string => `"${text.replace(/["\r\n\\]/g, "")}"`;

/** UTC date-time form: 20261124T093000Z. */
export const utcStamp = (iso: string): string =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/**
 * Lines longer than 75 octets are folded: CRLF and one space before each continuation
 * (§3.1), never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets; continuations 74 after their leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** The whole calendar object, CRLF line ends, ready to attach as text/calendar. */
export function calendarOf(event: CalendarEvent): string {
  const cancelled = event.method === "CANCEL";
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Admissions Platform//Interviews//EN",
    "CALSCALE:GREGORIAN",
    `METHOD:${event.method}`,
    "BEGIN:VEVENT",
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART:${utcStamp(event.start)}`,
    `DTEND:${utcStamp(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `LOCATION:${escapeText(event.location)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    `STATUS:${cancelled ? "CANCELLED" : "CONFIRMED"}`,
    `ORGANIZER;CN=${paramValue(event.organizer.name)}:mailto:${event.organizer.email}`,
    ...(event.attendee
      ? [
          `ATTENDEE;CN=${paramValue(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:${event.attendee.email}`,
        ]
      : []),
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}
