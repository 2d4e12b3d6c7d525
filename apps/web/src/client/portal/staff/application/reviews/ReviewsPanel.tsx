import { t } from "../../../i18n/use.ts";
import { StaffProblem } from "../../ui/StaffProblem.tsx";
import type { ApplicationView } from "../view.ts";
import { ExtraReviewFlag } from "./ExtraReviewFlag.tsx";
import { ReviewerCalibration } from "./ReviewerCalibration.tsx";
import { ReviewsSummary } from "./ReviewsSummary.tsx";
import { ScoreForm } from "./ScoreForm.tsx";

/**
 * The assessment beside the documents: the assigned reviewer's rubric first (what they came
 * for), then the panel's reviews summarised, the extra-review flag and, for admins, each
 * reviewer's calibration. A reviewer who declared a conflict of interest is told they no longer
 * read the reviews.
 */
export function ReviewsPanel({ view }: { view: ApplicationView }) {
  const { application, reviews, me } = view;
  const assigned = reviews?.assignments.some((a) => a.reviewer.id === me.id) ?? false;
  const mine = reviews?.reviews.find((r) => r.reviewer.id === me.id);
  return (
    <section class="panel" aria-labelledby="staff-reviews">
      <h2 id="staff-reviews">{t("staff.reviews.title")}</h2>
      {view.reviewsRefused && <StaffProblem problem={view.reviewsRefused.problem} />}
      {!reviews && !view.reviewsRefused && <p aria-busy="true">{t("common.loading")}</p>}
      {reviews && assigned && (
        <>
          <h3>{t("staff.score.title")}</h3>
          {!reviews.rubric && <p>{t("staff.score.noRubric")}</p>}
          {reviews.rubric && application.status === "under_review" && (
            <ScoreForm
              applicationId={application.id}
              rubric={reviews.rubric}
              mine={mine}
              onSaved={view.reload}
            />
          )}
          {reviews.rubric && application.status !== "under_review" && (
            <p data-testid="reviews-closed">{t("decide.score.closed")}</p>
          )}
        </>
      )}
      {reviews && (
        <>
          <h3>{t("decide.reviews.panel")}</h3>
          <ExtraReviewFlag reviews={reviews} />
          <ReviewsSummary reviews={reviews} />
          <ReviewerCalibration view={view} />
        </>
      )}
    </section>
  );
}
