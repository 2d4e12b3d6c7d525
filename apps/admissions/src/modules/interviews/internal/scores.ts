import { invalidField } from "@platform/server";
import { toIso } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import { findRubric, isConflicted } from "../../review/service.ts";
import { loadApplication, recordAudit } from "../../workflow/service.ts";
import type { Interview, ScoreBody } from "../model.ts";
import { findInterview, type InterviewRow, panelOf } from "../queries.ts";
import { type InterviewsDeps, loadInterview, type UserOrigin } from "./deps.ts";
import { closed, showInterview } from "./slots.ts";

/** Scores count towards the review only while it is still open. */
const SCORABLE = new Set(["under_review", "interviewing"]);

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
    if (!(await panelOf(tx, id)).includes(panelist.id)) {
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
      );
    }
    const comment = body.comment?.trim() ?? "";
    await tx`INSERT INTO interview_scores ${tx({
      interview_id: id,
      user_id: panelist.id,
      score: body.score,
      comment,
      created_at: at,
      updated_at: at,
    })} ON CONFLICT (interview_id, user_id) DO UPDATE SET score = ${body.score},
      comment = ${comment}, updated_at = ${at}`;
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
    return showInterview(tx, (await findInterview(tx, id)) as InterviewRow, panelist);
  });
}
