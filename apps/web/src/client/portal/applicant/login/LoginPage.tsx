import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { CurrentPasswordField, EmailField } from "../../ui/AccountFields.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { safeNext, useSession } from "../../ui/session.ts";
import { useSend } from "../../ui/useForm.ts";

export default function LoginPage() {
  const session = useSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, problem, send } = useSend();
  const next = safeNext(new URLSearchParams(location.search).get("next"));
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await send(() => admissions.login(email, password))) location.assign(next);
  };
  return (
    <Layout session={session}>
      {session.status === "signed-in" ? (
        <p>
          {t("login.already", { name: session.user.fullName })}{" "}
          <a href={next}>{t("common.continue")}</a>
        </p>
      ) : (
        <form onSubmit={submit} class="form" noValidate>
          {problem && <ProblemNotice problem={problem} testId="login-problem" />}
          <EmailField
            id="login-email"
            testId="login-email"
            autocomplete="username"
            value={email}
            onValue={setEmail}
          />
          <CurrentPasswordField
            id="login-password"
            testId="login-password"
            value={password}
            onValue={setPassword}
          />
          <button type="submit" disabled={busy} data-testid="login-submit">
            {t("login.submit")}
          </button>
          <p>
            <a href="/account/forgot-password">{t("login.forgot")}</a> ·{" "}
            <a href="/portal/register">{t("login.register")}</a>
          </p>
        </form>
      )}
    </Layout>
  );
}
