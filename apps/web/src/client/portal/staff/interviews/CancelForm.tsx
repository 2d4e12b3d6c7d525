import type { Interview } from "@platform/admissions/models";
import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { interviewsApi } from "./api.ts";

/**
 * An admin cancels an interview, with the reason the applicant is told (emailed with the
 * calendar's CANCEL). It cannot be undone, so the first press asks for a second.
 */
export function CancelForm({
  interview,
  onCancelled,
}: {
  interview: Interview;
  onCancelled: (next: Interview) => void;
}) {
  const [note, setNote] = useState("");
  const [asked, setAsked] = useState(false);
  const { busy, problem, send } = useSend<Interview>();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!asked) {
      setAsked(true);
      return;
    }
    const cancelled = await send(() => interviewsApi.cancel(interview.id, note.trim()));
    if (cancelled) onCancelled(cancelled.data);
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="interview-cancel-form">
      {problem && <StaffProblem problem={problem} testId="interview-cancel-problem" />}
      <div class="field">
        <label for="cancel-note">{t("decide.cancel.note")}</label>
        <p class="hint" id="cancel-note-hint">
          {t(interview.applicationId ? "decide.cancel.noteHint" : "decide.cancel.noteHintOpen")}
        </p>
        <textarea
          id="cancel-note"
          rows={3}
          maxLength={2_000}
          aria-describedby="cancel-note-hint"
          value={note}
          onInput={(e) => setNote(inputValue(e))}
        />
      </div>
      {asked && (
        <p class="warning" role="alert" data-testid="interview-cancel-confirm">
          {t("decide.cancel.confirm")}
        </p>
      )}
      <button type="submit" class="danger" disabled={busy} data-testid="interview-cancel">
        {t(asked ? "decide.cancel.again" : "decide.cancel.submit")}
      </button>
    </form>
  );
}
