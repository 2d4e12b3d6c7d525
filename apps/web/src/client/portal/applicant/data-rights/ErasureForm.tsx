import { useState } from "preact/hooks";
import { account } from "../../api/account.ts";
import type { DataRequest } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";

/**
 * Erasure cannot be undone once done, so it asks for the password (the API's check) and a
 * second press after the first one explains what happens.
 */
export function ErasureForm({ onDone }: { onDone: (request: DataRequest) => void }) {
  const [password, setPassword] = useState("");
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const { busy, problem, send } = useSend<DataRequest>();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!confirming) {
      setConfirming(true);
      return;
    }
    const answer = await send(() => account.requestErasure(password, reason.trim()));
    setConfirming(false);
    setPassword("");
    if (answer) onDone(answer.data);
  };
  return (
    <form onSubmit={submit} class="form" noValidate>
      <p>{t("data.erasureIntro")}</p>
      {problem && (
        <ProblemNotice
          problem={problem}
          fields={[
            { name: "password", id: "erasure-password", label: t("data.password") },
            { name: "reason", id: "erasure-reason", label: t("data.reason") },
          ]}
          testId="erasure-problem"
        />
      )}
      <Field
        id="erasure-password"
        label={t("data.password")}
        type="password"
        autocomplete="current-password"
        value={password}
        error={fieldError(problem, "password")}
        onInput={(e) => setPassword(inputValue(e))}
        data-testid="erasure-password"
      />
      <Field
        id="erasure-reason"
        label={t("data.reason")}
        rows={3}
        maxLength={2000}
        value={reason}
        onInput={(e) => setReason(inputValue(e))}
        data-testid="erasure-reason"
      />
      {confirming && (
        <p role="alert" data-testid="erasure-confirm-note">
          {t("data.erasureConfirm")}
        </p>
      )}
      <button type="submit" disabled={busy || !password} data-testid="erasure-submit">
        {confirming ? t("data.erasureYes") : t("data.erasureButton")}
      </button>
    </form>
  );
}
