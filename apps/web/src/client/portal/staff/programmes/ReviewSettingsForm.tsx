import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { ReviewSettings } from "../office/types.ts";
import { localProblem } from "../office/ui/local-problem.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";

const FIELDS: FormFields = {
  disagreementThreshold: { id: "settings-threshold", message: "office.settings.error.threshold" },
};

/** Blind review and the gap between two reviewers' totals that asks for a third (admins). */
export function ReviewSettingsForm({ settings }: { settings: ReviewSettings }) {
  const [blind, setBlind] = useState(settings.blindReview);
  const [threshold, setThreshold] = useState(
    settings.disagreementThreshold === null ? "" : String(settings.disagreementThreshold),
  );
  const { busy, problem, done, send, setProblem } = useSend<ReviewSettings>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const text = threshold.trim().replace(",", ".");
    const value = text === "" ? null : Number(text);
    if (value !== null && !Number.isFinite(value)) {
      return setProblem(localProblem(["disagreementThreshold"]));
    }
    await send(() =>
      officeApi.saveReviewSettings(settings.programId, {
        blindReview: blind,
        disagreementThreshold: value,
      }),
    );
  };
  const inForce = done?.data.effectiveThreshold ?? settings.effectiveThreshold;
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="review-settings">
      {problem && <OfficeProblem problem={problem} fields={FIELDS} />}
      <div class="field">
        <label class="choice">
          <input
            type="checkbox"
            checked={blind}
            onChange={(e) => setBlind((e.currentTarget as HTMLInputElement).checked)}
            data-testid="settings-blind"
          />
          {t("office.settings.blind")}
        </label>
        <p class="hint">{t("office.settings.blindHint")}</p>
      </div>
      <Field
        id="settings-threshold"
        label={t("office.settings.threshold")}
        hint={t("office.settings.thresholdHint")}
        value={threshold}
        error={fieldMessage(problem, FIELDS, "disagreementThreshold")}
        onInput={(e) => setThreshold(inputValue(e))}
      />
      <p class="muted">
        {inForce === null
          ? t("office.settings.noExtra")
          : t("office.settings.inForce", { threshold: inForce })}
      </p>
      <button type="submit" disabled={busy} data-testid="settings-save">
        {t("office.settings.save")}
      </button>
      {done && (
        <p role="status" data-testid="settings-saved">
          {t("office.settings.saved")}
        </p>
      )}
    </form>
  );
}
