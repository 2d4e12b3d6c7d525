import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";

/** Registration, then straight to signed in: the verification email is on its way meanwhile. */
export default function RegisterPage() {
  const session = useSession();
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, problem, send } = useSend<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await send(() => admissions.register({ fullName, email, password }));
    if (created && (await admissions.login(email, password)).ok) {
      location.assign("/portal/account?registered=1");
    }
  };
  return (
    <Layout session={session}>
      <form onSubmit={submit} class="form" noValidate>
        {problem && <ProblemNotice problem={problem} testId="register-problem" />}
        <Field
          id="register-name"
          label={t("field.fullName")}
          autocomplete="name"
          required
          maxLength={120}
          value={fullName}
          error={fieldError(problem, "fullName")}
          onInput={(e) => setFullName(inputValue(e))}
          data-testid="register-name"
        />
        <Field
          id="register-email"
          label={t("field.email")}
          type="email"
          autocomplete="email"
          required
          value={email}
          error={fieldError(problem, "email")}
          onInput={(e) => setEmail(inputValue(e))}
          data-testid="register-email"
        />
        <Field
          id="register-password"
          label={t("field.newPassword")}
          hint={t("field.passwordHint")}
          type="password"
          autocomplete="new-password"
          required
          value={password}
          error={fieldError(problem, "password")}
          onInput={(e) => setPassword(inputValue(e))}
          data-testid="register-password"
        />
        <button type="submit" disabled={busy} data-testid="register-submit">
          {t("register.submit")}
        </button>
        <p>
          <a href="/portal/login">{t("register.haveAccount")}</a>
        </p>
      </form>
    </Layout>
  );
}
