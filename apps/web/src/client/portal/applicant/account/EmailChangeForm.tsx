import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";

/** Nothing changes until the link sent to the new address is opened (/account/confirm-email-change). */
export function EmailChangeForm() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, problem, done, send } = useSend<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await send(() => admissions.requestEmailChange(email, password))) setPassword("");
  };
  return (
    <form onSubmit={submit} class="form" noValidate>
      {problem && <ProblemNotice problem={problem} testId="email-change-problem" />}
      {done && !problem && (
        <p role="status" data-testid="email-change-sent">
          {t("account.emailChangeSent")}
        </p>
      )}
      <Field
        id="new-email"
        data-testid="new-email"
        label={t("field.newEmail")}
        type="email"
        autocomplete="email"
        value={email}
        error={fieldError(problem, "newEmail")}
        onInput={(e) => setEmail(inputValue(e))}
      />
      <Field
        id="email-change-password"
        data-testid="email-change-password"
        label={t("field.currentPassword")}
        type="password"
        autocomplete="current-password"
        value={password}
        onInput={(e) => setPassword(inputValue(e))}
      />
      <button type="submit" disabled={busy}>
        {t("account.changeEmail")}
      </button>
    </form>
  );
}
