import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";

/** Changing the password ends every other sign-in (the API does; the page says so). */
export function PasswordForm() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const { busy, problem, done, send } = useSend<null>();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await send(() => admissions.changePassword(current, next))) {
      setCurrent("");
      setNext("");
    }
  };
  return (
    <form onSubmit={submit} class="form" noValidate>
      {problem && <ProblemNotice problem={problem} testId="password-problem" />}
      {done && !busy && !problem && (
        <p role="status" data-testid="password-changed">
          {t("account.passwordChanged")}
        </p>
      )}
      <Field
        id="current-password"
        data-testid="current-password"
        label={t("field.currentPassword")}
        type="password"
        autocomplete="current-password"
        value={current}
        onInput={(e) => setCurrent(inputValue(e))}
      />
      <Field
        id="new-password"
        data-testid="new-password"
        label={t("field.newPassword")}
        hint={t("field.passwordHint")}
        type="password"
        autocomplete="new-password"
        value={next}
        error={fieldError(problem, "newPassword")}
        onInput={(e) => setNext(inputValue(e))}
      />
      <button type="submit" disabled={busy}>
        {t("account.changePassword")}
      </button>
    </form>
  );
}
