import type { Interview, InterviewScoreBody } from "@platform/admissions/models";
import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { FieldError, type FieldRule, FormProblem, fieldErrors } from "../ui/FormProblem.tsx";
import { interviewsApi } from "./api.ts";

/**
 * A panel member records the interview's outcome once it has started: a score on the
 * programme rubric's scale (the scale the reviews' totals use) and what the panel concluded.
 * Saving again revises it. The API judges the score (422) and when it may be given (409).
 */
export function OutcomeForm({
  interview,
  myId,
  scale,
  onSaved,
}: {
  interview: Interview;
  myId: string;
  scale: { min: number; max: number } | null;
  onSaved: (next: Interview) => void;
}) {
  const mine = interview.scores.find((s) => s.panelist.id === myId);
  const [score, setScore] = useState(mine ? String(mine.score) : "");
  const [comment, setComment] = useState(mine?.comment ?? "");
  const { busy, problem, done, send } = useSend<Interview>();
  const id = `outcome-${interview.id}`;
  const rules: FieldRule[] = [
    {
      path: "/body/score",
      id: `${id}-score`,
      message: scale
        ? t("decide.outcome.scoreError", { min: scale.min, max: scale.max })
        : t("decide.outcome.scoreErrorAny"),
    },
    { path: "/body/comment", id: `${id}-comment`, message: t("decide.outcome.commentError") },
  ];
  const errors = fieldErrors(problem, rules);
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: InterviewScoreBody = { score: Number(score), comment };
    const saved = await send(() => interviewsApi.score(interview.id, body));
    if (saved) onSaved(saved.data);
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="interview-outcome">
      <h3>{t(mine ? "decide.outcome.revise" : "decide.outcome.title")}</h3>
      <FormProblem problem={problem} rules={rules} testId="interview-outcome-problem" />
      <div class="field">
        <label for={`${id}-score`}>{t("decide.outcome.score")}</label>
        {scale && (
          <p class="hint" id={`${id}-score-hint`}>
            {t("decide.outcome.scale", { min: scale.min, max: scale.max })}
          </p>
        )}
        <input
          id={`${id}-score`}
          type="number"
          inputMode="numeric"
          min={scale?.min}
          max={scale?.max}
          value={score}
          aria-invalid={errors.has(`${id}-score`) ? true : undefined}
          aria-describedby={
            [scale ? `${id}-score-hint` : "", errors.has(`${id}-score`) ? `${id}-score-error` : ""]
              .filter(Boolean)
              .join(" ") || undefined
          }
          onInput={(e) => setScore(inputValue(e))}
          data-testid="interview-score-input"
        />
        <FieldError id={`${id}-score`} errors={errors} />
      </div>
      <div class="field">
        <label for={`${id}-comment`}>{t("decide.outcome.comment")}</label>
        <textarea
          id={`${id}-comment`}
          rows={3}
          maxLength={10_000}
          value={comment}
          onInput={(e) => setComment(inputValue(e))}
          data-testid="interview-comment-input"
        />
      </div>
      <button type="submit" disabled={busy} data-testid="interview-outcome-save">
        {t("decide.outcome.save")}
      </button>
      {done && (
        <p role="status" data-testid="interview-outcome-saved">
          {t("decide.outcome.saved", {
            score: done.data.scores.find((s) => s.panelist.id === myId)?.score ?? score,
          })}
        </p>
      )}
    </form>
  );
}
