import type { Db } from "../../../db/client.ts";
import { notFound } from "../../../problems.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { MoveDeps, Origin } from "../../workflow/model.ts";
import { findInterview, type InterviewRow } from "./queries.ts";

export type InterviewsDeps = {
  db: Db;
  now: () => number;
  move: MoveDeps;
  /** The invitations' ORGANIZER: the address the emails come from (ADMISSIONS_MAIL_FROM). */
  mailFrom: string;
};

export type UserOrigin = Origin & { actor: User };

/**
 * An interview the viewer may see: any for staff; for an applicant, only one they were invited
 * to. Anything else is the same 404 as an id that does not exist, so ids cannot be probed.
 */
export function visibleTo(row: InterviewRow | null, viewer: User): InterviewRow {
  if (!row || (!isStaff(viewer.role) && row.applicant_id !== viewer.id)) {
    throw notFound("Interview");
  }
  return row;
}

export const loadInterview = async (
  sql: Parameters<typeof findInterview>[0],
  id: string,
  viewer: User,
): Promise<InterviewRow> => visibleTo(await findInterview(sql, id), viewer);

/** `Name <address>` or a bare address, as ADMISSIONS_MAIL_FROM is written. */
export function parseMailbox(from: string): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  if (match) return { name: match[1] || "Admissions Office", email: (match[2] ?? "").trim() };
  return { name: "Admissions Office", email: from.trim() };
}
