import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { toIso } from "../../../db/dialect.ts";
import { problem } from "../../../problems.ts";
import { findRubric, isConflicted } from "../../review/service.ts";
import type { User } from "../../users/model.ts";
import type { Application } from "../../workflow/model.ts";
import { loadApplication } from "../../workflow/service.ts";
import type { ScoreBody } from "../model.ts";
import { type InterviewRow, panelOf } from "./queries.ts";
import { closed } from "./slots.ts";

/** Scores count towards the review only while it is still open. */
const SCORABLE = new Set(["under_review", "interviewing"]);

/**
 * Who may score, and what: a panel member (403 NOT_ON_PANEL) of an interview that has started
 * with an applicant invited (409), not conflicted with the application (403), while its review
 * is open (409 REVIEWS_CLOSED), on the rubric's scale (409 RUBRIC_MISSING, 422). The
 * application is returned.
 */
export async function scorableBy(
  tx: SQL,
  row: InterviewRow,
  panelist: User,
  body: ScoreBody,
  nowMs: number,
): Promise<Application> {
  if (!(await panelOf(tx, row.id)).includes(panelist.id)) {
    throw problem("NOT_ON_PANEL", { detail: "Only the interview's panel scores it" });
  }
  if (row.status === "cancelled") throw closed("cancelled");
  if (!row.application_id || Date.parse(toIso(row.starts_at)) > nowMs) {
    throw problem("INTERVIEW_NOT_HELD", {
      detail: "An interview is scored once it has started, with an applicant invited",
    });
  }
  const application = await loadApplication(tx, row.application_id);
  if (!application) throw new Error("interview's application vanished");
  if (await isConflicted(tx, application.id, panelist.id)) {
    throw problem("CONFLICT_OF_INTEREST", {
      detail: "You declared a conflict of interest with this application",
    });
  }
  if (!SCORABLE.has(application.status)) {
    throw problem("REVIEWS_CLOSED", {
      detail: `The application is ${application.status}; scores are taken until the decision`,
    });
  }
  const rubric = await findRubric(tx, application.program.id);
  if (!rubric) {
    throw problem("RUBRIC_MISSING", { detail: "An admin must set the program's rubric first" });
  }
  if (body.score < rubric.scale.min || body.score > rubric.scale.max) {
    throw invalidField(
      "/body/score",
      `must be within the rubric's scale ${rubric.scale.min}–${rubric.scale.max}`,
      body.score < rubric.scale.min ? "minimum" : "maximum",
      body.score < rubric.scale.min ? rubric.scale.min : rubric.scale.max,
    );
  }
  return application;
}

/** The panel member's score, written or replaced. */
export async function writeScore(
  tx: SQL,
  interviewId: string,
  userId: string,
  body: ScoreBody,
  at: string,
): Promise<void> {
  const comment = body.comment?.trim() ?? "";
  await tx`INSERT INTO interview_scores ${tx({
    interview_id: interviewId,
    user_id: userId,
    score: body.score,
    comment,
    created_at: at,
    updated_at: at,
  })} ON CONFLICT (interview_id, user_id) DO UPDATE SET score = ${body.score},
    comment = ${comment}, updated_at = ${at}`;
}
