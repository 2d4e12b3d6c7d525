import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { NewPasswordField } from "../../ui/AccountFields.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { takeToken } from "../../ui/token.ts";
import { useSend } from "../../ui/useForm.ts";

export default function ResetPasswordPage() {
  const [token] = useState(takeToken);
  const session = useSession();
  const [password, setPassword] = useState("");
  const { busy, problem, done, send } = useSend<null>();
  const submit = (event: Event) => {
    event.preventDefault();
    if (token) send(() => admissions.confirmReset(token, password));
  };
  if (!token) {
    return (
      <Layout session={session}>
        <p role="alert">
          {t("link.missing")} <a href="/account/forgot-password">{t("forgot.again")}</a>
        </p>
      </Layout>
    );
  }
  return (
    <Layout session={session}>
      {done === null && problem?.code !== "INVALID_ACCOUNT_TOKEN" ? (
        <form onSubmit={submit} class="form" noValidate>
          {problem && (
            <ProblemNotice
              problem={problem}
              fields={[
                { name: "newPassword", id: "reset-password", label: t("field.newPassword") },
              ]}
            />
          )}
          <NewPasswordField
            id="reset-password"
            testId="reset-password"
            value={password}
            onValue={setPassword}
            error={fieldError(problem, "newPassword")}
          />
          <button type="submit" disabled={busy} data-testid="reset-submit">
            {t("reset.submit")}
          </button>
        </form>
      ) : problem ? (
        <div>
          <ProblemNotice problem={problem} />
          <p>
            <a href="/account/forgot-password">{t("forgot.again")}</a>
          </p>
        </div>
      ) : (
        <p role="status" data-testid="reset-done">
          {t("reset.done")} <a href="/portal/login">{t("nav.login")}</a>
        </p>
      )}
    </Layout>
  );
}
