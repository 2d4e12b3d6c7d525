import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { CurrentPasswordField, NewPasswordField } from "../../ui/AccountFields.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";

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
      {problem && (
        <ProblemNotice
          problem={problem}
          fields={[{ name: "newPassword", id: "new-password", label: t("field.newPassword") }]}
          testId="password-problem"
        />
      )}
      {done && !busy && !problem && (
        <p role="status" data-testid="password-changed">
          {t("account.passwordChanged")}
        </p>
      )}
      <CurrentPasswordField
        id="current-password"
        testId="current-password"
        label={t("field.currentPassword")}
        value={current}
        onValue={setCurrent}
      />
      <NewPasswordField
        id="new-password"
        testId="new-password"
        value={next}
        onValue={setNext}
        error={fieldError(problem, "newPassword")}
      />
      <button type="submit" disabled={busy}>
        {t("account.changePassword")}
      </button>
    </form>
  );
}
