import { useState } from "preact/hooks";
import type { MessageKey } from "../../../i18n/index.ts";
import { t } from "../../../i18n/use.ts";
import { inputValue, useSend } from "../../../ui/useForm.ts";
import { staffApi } from "../../api.ts";
import type { ApplicationReviews, Review, ReviewBody } from "../../types.ts";
import { FieldError, type FieldRule, FormProblem, fieldErrors } from "../../ui/FormProblem.tsx";

const RECOMMENDATIONS = ["offer", "waitlist", "reject", "discuss"] as const;

/**
 * The assigned reviewer's scores against the programme's rubric, a recommendation and a comment.
 * Saving again revises the review. The API judges the scores (422 per criterion off the scale),
 * said in words beside the criterion and in the summary above the form.
 */
export function ScoreForm({
  applicationId,
  rubric,
  mine,
  onSaved,
}: {
  applicationId: string;
  rubric: NonNullable<ApplicationReviews["rubric"]>;
  mine: Review | undefined;
  onSaved: () => void;
}) {
  const [scores, setScores] = useState<Record<string, string>>(() =>
    Object.fromEntries(rubric.criteria.map((c) => [c.key, String(mine?.scores[c.key] ?? "")])),
  );
  const [recommendation, setRecommendation] = useState<ReviewBody["recommendation"]>(
    mine?.recommendation ?? "offer",
  );
  const [comment, setComment] = useState(mine?.comment ?? "");
  const { busy, problem, done, send } = useSend<Review>();
  const rules: FieldRule[] = rubric.criteria.map((c) => ({
    path: `/body/scores/${c.key}`,
    id: `score-${c.key}`,
    message: t("decide.score.error", {
      label: c.label,
      min: rubric.scale.min,
      max: rubric.scale.max,
    }),
  }));
  const errors = fieldErrors(problem, rules);
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: ReviewBody = {
      // An empty or non-numeric entry goes as it is (null, or 0): the API says it is off the scale.
      scores: Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, Number(v)])),
      recommendation,
      comment,
    };
    if (await send(() => staffApi.saveReview(applicationId, body))) onSaved();
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="score-form">
      <p class="hint">{t("staff.score.scale", { min: rubric.scale.min, max: rubric.scale.max })}</p>
      <FormProblem problem={problem} rules={rules} testId="review-problem" />
      {rubric.criteria.map((c) => {
        const error = errors.get(`score-${c.key}`);
        return (
          <div class="field" key={c.key}>
            <label for={`score-${c.key}`}>
              {t("staff.score.criterion", { label: c.label, weight: c.weight })}
            </label>
            <input
              id={`score-${c.key}`}
              type="number"
              inputMode="numeric"
              min={rubric.scale.min}
              max={rubric.scale.max}
              required
              value={scores[c.key] ?? ""}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `score-${c.key}-error` : undefined}
              onInput={(e) => setScores({ ...scores, [c.key]: inputValue(e) })}
              data-testid={`score-${c.key}`}
            />
            <FieldError id={`score-${c.key}`} errors={errors} />
          </div>
        );
      })}
      <div class="field">
        <label for="review-recommendation">{t("staff.score.recommendation")}</label>
        <select
          id="review-recommendation"
          value={recommendation}
          onChange={(e) => setRecommendation(inputValue(e) as ReviewBody["recommendation"])}
          data-testid="review-recommendation"
        >
          {RECOMMENDATIONS.map((r) => (
            <option key={r} value={r}>
              {t(`staff.recommendation.${r}` as MessageKey)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="review-comment">{t("staff.score.comment")}</label>
        <textarea
          id="review-comment"
          rows={4}
          maxLength={10_000}
          value={comment}
          onInput={(e) => setComment(inputValue(e))}
          data-testid="review-comment"
        />
      </div>
      <button type="submit" disabled={busy} data-testid="save-review">
        {t(mine ? "staff.score.revise" : "staff.score.save")}
      </button>
      {done && (
        <p role="status" data-testid="review-saved">
          {t("staff.score.saved", { total: done.data.weightedTotal })}
        </p>
      )}
    </form>
  );
}
