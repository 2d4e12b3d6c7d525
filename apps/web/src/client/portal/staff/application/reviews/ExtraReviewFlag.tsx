import { t } from "../../../i18n/use.ts";
import type { ApplicationReviews } from "../../types.ts";
import { formatScore } from "../../ui/format.ts";

/**
 * The automatic extra review (docs/admissions/review.md): asked for when two counted totals
 * were further apart than the programme's threshold, or flagged for an admin when nobody was
 * free to take it (until an admin assigns a reviewer by hand).
 */
export function ExtraReviewFlag({ reviews }: { reviews: ApplicationReviews }) {
  const extra = reviews.extraReview;
  if (!extra) return null;
  const vars = {
    low: formatScore(extra.lowTotal),
    high: formatScore(extra.highTotal),
    threshold: formatScore(extra.threshold),
  };
  if (extra.reviewerId === null) {
    return (
      <p class="warning" data-testid="extra-review" data-state="flagged">
        {t("decide.extra.flagged", vars)}
      </p>
    );
  }
  const name =
    reviews.assignments.find((a) => a.reviewer.id === extra.reviewerId)?.reviewer.fullName ??
    reviews.reviews.find((r) => r.reviewer.id === extra.reviewerId)?.reviewer.fullName ??
    t("decide.extra.someone");
  return (
    <p class="notice" data-testid="extra-review" data-state="requested">
      {t("decide.extra.requested", { ...vars, name })}
    </p>
  );
}
