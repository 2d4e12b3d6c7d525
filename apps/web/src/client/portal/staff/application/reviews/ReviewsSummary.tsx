import type { MessageKey } from "../../../i18n/index.ts";
import { t } from "../../../i18n/use.ts";
import type { ApplicationReviews } from "../../types.ts";
import { formatScore } from "../../ui/format.ts";
import { ScrollTable } from "../../ui/ScrollTable.tsx";

/**
 * The panel's reviews summarised: the mean weighted total and its range, the recommendations
 * counted, the interview panel's score beside it (not folded in, as the API keeps it), and
 * every counted score by criterion and reviewer; then each review with its comment.
 */
export function ReviewsSummary({ reviews }: { reviews: ApplicationReviews }) {
  const criteria = reviews.rubric?.criteria ?? [];
  const label = (key: string) => criteria.find((c) => c.key === key)?.label ?? key;
  const counted = reviews.reviews.filter((r) => !r.excluded);
  const totals = counted.map((r) => r.weightedTotal);
  const recommended = Object.entries(reviews.recommendations).filter(([, n]) => n > 0);
  return (
    <div data-testid="reviews">
      <p data-testid="reviews-total">
        {reviews.weightedTotal === null
          ? t("staff.reviews.none")
          : t("staff.reviews.total", { total: reviews.weightedTotal, count: counted.length })}
        {totals.length > 1 &&
          ` ${t("decide.reviews.range", {
            low: formatScore(Math.min(...totals)),
            high: formatScore(Math.max(...totals)),
          })}`}
      </p>
      {recommended.length > 0 && (
        <p data-testid="reviews-recommendations">
          {t("decide.reviews.recommended", {
            list: recommended
              .map(([r, n]) => `${t(`staff.recommendation.${r}` as MessageKey)} × ${n}`)
              .join(" · "),
          })}
        </p>
      )}
      <p data-testid="interview-score">
        {reviews.interview.score === null
          ? t("decide.reviews.noInterviewScore")
          : t("decide.reviews.interviewScore", {
              score: formatScore(reviews.interview.score),
              count: reviews.interview.scores,
            })}
      </p>
      {reviews.assignments.length > 0 && (
        <p>
          {t("staff.reviews.assigned", {
            names: reviews.assignments.map((a) => a.reviewer.fullName).join(", "),
          })}
        </p>
      )}
      {counted.length > 1 && criteria.length > 0 && (
        <ScrollTable label={t("decide.reviews.byCriterion")}>
          <table data-testid="reviews-by-criterion">
            <caption>{t("decide.reviews.byCriterion")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("decide.reviews.criterion")}</th>
                {counted.map((r) => (
                  <th scope="col" key={r.id}>
                    {r.reviewer.fullName}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {criteria.map((c) => (
                <tr key={c.key}>
                  <th scope="row">
                    {t("staff.score.criterion", { label: c.label, weight: c.weight })}
                  </th>
                  {counted.map((r) => (
                    <td key={r.id}>{r.scores[c.key] ?? "—"}</td>
                  ))}
                </tr>
              ))}
              <tr>
                <th scope="row">{t("decide.reviews.weighted")}</th>
                {counted.map((r) => (
                  <td key={r.id}>{formatScore(r.weightedTotal)}</td>
                ))}
              </tr>
            </tbody>
          </table>
        </ScrollTable>
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
            {r.comment && <p class="statement">{r.comment}</p>}
          </li>
        ))}
      </ul>
    </div>
  );
}
