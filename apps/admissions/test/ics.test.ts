import { describe, expect, test } from "bun:test";
import { parseMailbox } from "../src/modules/interviews/internal/deps.ts";
import { calendarOf, escapeText, foldLine } from "../src/modules/interviews/internal/ics.ts";

const event = {
  method: "REQUEST" as const,
  uid: "0198f2c4-aaaa-7bbb-8ccc-123456789abc@admissions",
  sequence: 2,
  stamp: "2026-11-24T23:45:00.000Z",
  start: "2026-12-01T09:00:00.000Z",
  end: "2026-12-01T09:30:00.000Z",
  summary: "Interview: Física; Química, \\ Ciências",
  description: "Line one\nLine two",
  location: "Room 4, Main Building; 2nd floor",
  url: "https://meet.example.org/abc",
  organizer: { name: "Admissions Office", email: "admissions@example.org" },
  attendee: { name: 'Ada "The Countess" Lovelace', email: "ada@example.org" },
};

/** Unfolding as a reader does (RFC 5545 §3.1): CRLF followed by one space or tab joins lines. */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, "");
const property = (text: string, name: string) =>
  unfold(text)
    .split("\r\n")
    .find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`));

describe("the iCalendar writer", () => {
  test("TEXT values escape backslash, semicolon, comma and line breaks", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
  });

  test("long lines fold at 75 octets with CRLF + space, never inside a UTF-8 character", () => {
    const long = `DESCRIPTION:${"é".repeat(100)}`;
    const folded = foldLine(long);
    const lines = folded.split("\r\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const [i, line] of lines.entries()) {
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
      if (i > 0) expect(line.startsWith(" ")).toBe(true);
      expect(line).not.toContain("\uFFFD");
    }
    expect(unfold(folded)).toBe(long);
    expect(foldLine("SHORT:x")).toBe("SHORT:x");
  });

  test("a REQUEST: every line CRLF-ended, the event's fields in UTC, escaped, folded", () => {
    const ics = calendarOf({ ...event, description: `${"Long text ".repeat(20)}\nend` });
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toContain("\n");
    for (const line of ics.split("\r\n")) {
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    }
    expect(ics.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(property(ics, "METHOD")).toBe("METHOD:REQUEST");
    expect(property(ics, "UID")).toBe(`UID:${event.uid}`);
    expect(property(ics, "SEQUENCE")).toBe("SEQUENCE:2");
    expect(property(ics, "DTSTAMP")).toBe("DTSTAMP:20261124T234500Z");
    expect(property(ics, "DTSTART")).toBe("DTSTART:20261201T090000Z");
    expect(property(ics, "DTEND")).toBe("DTEND:20261201T093000Z");
    expect(property(ics, "SUMMARY")).toBe("SUMMARY:Interview: Física\\; Química\\, \\\\ Ciências");
    expect(property(ics, "LOCATION")).toBe("LOCATION:Room 4\\, Main Building\\; 2nd floor");
    expect(property(ics, "DESCRIPTION")).toEndWith("\\nend");
    expect(property(ics, "STATUS")).toBe("STATUS:CONFIRMED");
    expect(property(ics, "URL")).toBe("URL:https://meet.example.org/abc");
    expect(property(ics, "ORGANIZER")).toBe(
      'ORGANIZER;CN="Admissions Office":mailto:admissions@example.org',
    );
    // A quoted parameter value cannot hold a double quote: it is dropped, not let through.
    expect(property(ics, "ATTENDEE")).toBe(
      'ATTENDEE;CN="Ada The Countess Lovelace";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:ada@example.org',
    );
    expect(ics.indexOf("BEGIN:VEVENT")).toBeLessThan(ics.indexOf("END:VEVENT"));
    expect(ics.trimEnd().endsWith("END:VCALENDAR")).toBe(true);
  });

  test("a CANCEL says so twice (METHOD and STATUS); no URL for an in-person interview", () => {
    const ics = calendarOf({ ...event, method: "CANCEL", url: null });
    expect(property(ics, "METHOD")).toBe("METHOD:CANCEL");
    expect(property(ics, "STATUS")).toBe("STATUS:CANCELLED");
    expect(property(ics, "URL")).toBeUndefined();
  });

  test("the organizer comes from ADMISSIONS_MAIL_FROM, with or without a display name", () => {
    expect(parseMailbox("Admissions Office <admissions@example.org>")).toEqual({
      name: "Admissions Office",
      email: "admissions@example.org",
    });
    expect(parseMailbox('"Uni, Admissions" <a@example.org>')).toEqual({
      name: "Uni, Admissions",
      email: "a@example.org",
    });
    expect(parseMailbox("a@example.org")).toEqual({
      name: "Admissions Office",
      email: "a@example.org",
    });
  });
});
