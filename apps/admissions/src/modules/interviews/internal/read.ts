import type { SQL } from "bun";
import { isStaff, type User } from "../../users/model.ts";
import type { InterviewQuery } from "../model.ts";
import { type InterviewRow, selectInterviews, toInterviews } from "./queries.ts";

/**
 * Interviews by start time: staff filter all of them (but those of applications they declared a
 * conflict with); an applicant sees the ones they were invited to, whatever they ask for.
 */
export async function interviewsFor(sql: SQL, viewer: User, query: InterviewQuery) {
  const staff = isStaff(viewer.role);
  const where = [
    staff ? sql`1 = 1` : sql`a.applicant_id = ${viewer.id}`,
    query.applicationId ? sql`iv.application_id = ${query.applicationId}` : sql`1 = 1`,
    query.status ? sql`iv.status = ${query.status}` : sql`1 = 1`,
    query.from ? sql`iv.ends_at > ${new Date(query.from).toISOString()}` : sql`1 = 1`,
    staff && query.mine
      ? sql`iv.id IN (SELECT interview_id FROM interview_panel WHERE user_id = ${viewer.id})`
      : sql`1 = 1`,
    // Staff who declared a conflict with an application do not see its interviews.
    staff
      ? sql`NOT EXISTS (SELECT 1 FROM review_conflicts c
          WHERE c.application_id = iv.application_id AND c.reviewer_id = ${viewer.id})`
      : sql`1 = 1`,
  ].reduce((all, next) => sql`${all} AND ${next}`);
  const rows = (await sql`${selectInterviews(sql)} WHERE ${where}
    ORDER BY iv.starts_at, iv.id LIMIT 200`) as InterviewRow[];
  return { results: await toInterviews(sql, rows, staff) };
}
