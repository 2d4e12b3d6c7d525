import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { CurrentPasswordField, EmailField } from "../../ui/AccountFields.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";

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
      {problem && (
        <ProblemNotice
          problem={problem}
          fields={[{ name: "newEmail", id: "new-email", label: t("field.newEmail") }]}
          testId="email-change-problem"
        />
      )}
      {done && !problem && (
        <p role="status" data-testid="email-change-sent">
          {t("account.emailChangeSent")}
        </p>
      )}
      <EmailField
        id="new-email"
        testId="new-email"
        label={t("field.newEmail")}
        value={email}
        onValue={setEmail}
        error={fieldError(problem, "newEmail")}
      />
      <CurrentPasswordField
        id="email-change-password"
        testId="email-change-password"
        label={t("field.currentPassword")}
        value={password}
        onValue={setPassword}
      />
      <button type="submit" disabled={busy}>
        {t("account.changeEmail")}
      </button>
    </form>
  );
}
