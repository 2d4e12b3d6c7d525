import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import type { ApplicationReviews } from "../types.ts";

/** The reviews so far: the mean weighted total, the recommendations counted, each review. */
export function ReviewsSummary({ reviews }: { reviews: ApplicationReviews }) {
  const label = (key: string) => reviews.rubric?.criteria.find((c) => c.key === key)?.label ?? key;
  return (
    <div data-testid="reviews">
      <p>
        {reviews.weightedTotal === null
          ? t("staff.reviews.none")
          : t("staff.reviews.total", {
              total: reviews.weightedTotal,
              count: reviews.reviews.filter((r) => !r.excluded).length,
            })}
      </p>
      {reviews.assignments.length > 0 && (
        <p>
          {t("staff.reviews.assigned", {
            names: reviews.assignments.map((a) => a.reviewer.fullName).join(", "),
          })}
        </p>
      )}
      <ul class="reviews">
        {reviews.reviews.map((r) => (
          <li key={r.id} class="panel" data-testid="review">
            <p>
              <strong>{r.reviewer.fullName}</strong> —{" "}
              {t(`staff.recommendation.${r.recommendation}` as MessageKey)} ·{" "}
              {t("staff.reviews.weighted", { total: r.weightedTotal })}
              {r.excluded && ` · ${t("staff.reviews.excluded")}`}
            </p>
            <ul>
              {Object.entries(r.scores).map(([key, score]) => (
                <li key={key}>
                  {label(key)}: {score}
                </li>
              ))}
            </ul>
            {r.comment && <p>{r.comment}</p>}
          </li>
        ))}
      </ul>
    </div>
  );
}
