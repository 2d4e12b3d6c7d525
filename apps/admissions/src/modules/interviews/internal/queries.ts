import type { SQL } from "bun";
import { toInt, toIso } from "../../../db/dialect.ts";
import type { Interview, InterviewStatus } from "../model.ts";

export type InterviewRow = {
  id: string;
  application_id: string | null;
  status: InterviewStatus;
  starts_at: unknown;
  ends_at: unknown;
  location: string | null;
  meeting_url: string | null;
  sequence: number;
  applicant_note: string | null;
  cancel_reason: string | null;
  created_at: unknown;
  updated_at: unknown;
  applicant_id: string | null;
};

type PanelRow = { interview_id: string; user_id: string; email: string; full_name: string };
type ScoreRow = PanelRow & { score: number; comment: string; updated_at: unknown };

/** Interviews with the applicant who owns the invited application (null while open). */
export const selectInterviews = (sql: SQL) => sql`SELECT iv.*, a.applicant_id
  FROM interviews iv LEFT JOIN applications a ON a.id = iv.application_id`;

export async function findInterview(sql: SQL, id: string): Promise<InterviewRow | null> {
  const [row] = (await sql`${selectInterviews(sql)} WHERE iv.id = ${id}`) as InterviewRow[];
  return row ?? null;
}

/**
 * Rows as the API shows them. The panel and its scores are staff-only: `withPanel` false gives
 * the applicant's view.
 */
export async function toInterviews(
  sql: SQL,
  rows: InterviewRow[],
  withPanel: boolean,
): Promise<Interview[]> {
  const ids = rows.map((row) => row.id);
  const panel: PanelRow[] =
    withPanel && ids.length
      ? await sql`SELECT p.interview_id, p.user_id, u.email, u.full_name
          FROM interview_panel p JOIN users u ON u.id = p.user_id
          WHERE p.interview_id IN ${sql(ids)} ORDER BY u.full_name, u.id`
      : [];
  const scores: ScoreRow[] =
    withPanel && ids.length
      ? await sql`SELECT s.interview_id, s.user_id, s.score, s.comment, s.updated_at,
            u.email, u.full_name
          FROM interview_scores s JOIN users u ON u.id = s.user_id
          WHERE s.interview_id IN ${sql(ids)} ORDER BY s.created_at, s.user_id`
      : [];
  const person = (row: PanelRow) => ({
    id: row.user_id,
    email: row.email,
    fullName: row.full_name,
  });
  return rows.map((row) => ({
    id: row.id,
    applicationId: row.application_id,
    status: row.status,
    startsAt: toIso(row.starts_at),
    endsAt: toIso(row.ends_at),
    location: row.location,
    meetingUrl: row.meeting_url,
    sequence: toInt(row.sequence),
    applicantNote: row.applicant_note,
    cancelReason: row.cancel_reason,
    panel: panel.filter((p) => p.interview_id === row.id).map(person),
    scores: scores
      .filter((s) => s.interview_id === row.id)
      .map((s) => ({
        panelist: person(s),
        score: toInt(s.score),
        comment: s.comment,
        updatedAt: toIso(s.updated_at),
      })),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  }));
}

/**
 * Panel members already on another live interview overlapping [startsAt, endsAt): two
 * intervals overlap when each starts before the other ends (back-to-back is fine).
 */
export async function panelClashes(
  sql: SQL,
  userIds: string[],
  startsAt: string,
  endsAt: string,
  exceptId: string | null,
): Promise<{ userId: string; interviewId: string; startsAt: string; endsAt: string }[]> {
  if (userIds.length === 0) return [];
  const rows = (await sql`SELECT user_id, interview_id, starts_at, ends_at FROM interview_panel
    WHERE user_id IN ${sql(userIds)} AND active = ${true}
      AND starts_at < ${endsAt} AND ends_at > ${startsAt}
      AND interview_id <> ${exceptId ?? ""}
    ORDER BY user_id, starts_at`) as {
    user_id: string;
    interview_id: string;
    starts_at: unknown;
    ends_at: unknown;
  }[];
  return rows.map((row) => ({
    userId: row.user_id,
    interviewId: row.interview_id,
    startsAt: toIso(row.starts_at),
    endsAt: toIso(row.ends_at),
  }));
}

export const panelOf = async (sql: SQL, interviewId: string): Promise<string[]> =>
  (
    (await sql`SELECT user_id FROM interview_panel WHERE interview_id = ${interviewId}`) as {
      user_id: string;
    }[]
  ).map((row) => row.user_id);
