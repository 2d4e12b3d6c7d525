import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { EmailField, NewPasswordField } from "../../ui/AccountFields.tsx";
import { Field } from "../../ui/Field.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";

/**
 * Registration. The API answers the same whether or not the address has an account (no
 * enumeration), and so does this page: "check your email". A new address's email holds its
 * verification link; the owner of one already registered is told how to sign in or reset.
 */
export default function RegisterPage() {
  const session = useSession();
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, problem, done, send } = useSend<unknown>();
  const submit = (event: Event) => {
    event.preventDefault();
    send(() => admissions.register({ fullName, email, password }));
  };
  return (
    <Layout session={session}>
      {done ? (
        <div role="status" class="panel" data-testid="registered">
          <p>{t("register.sent", { email })}</p>
          <p>
            <a href="/portal/login">{t("register.thenSignIn")}</a>
          </p>
        </div>
      ) : (
        <form onSubmit={submit} class="form" noValidate>
          {problem && (
            <ProblemNotice
              problem={problem}
              fields={[
                { name: "fullName", id: "register-name", label: t("field.fullName") },
                { name: "email", id: "register-email", label: t("field.email") },
                { name: "password", id: "register-password", label: t("field.newPassword") },
              ]}
              testId="register-problem"
            />
          )}
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
          <EmailField
            id="register-email"
            testId="register-email"
            value={email}
            onValue={setEmail}
            error={fieldError(problem, "email")}
          />
          <NewPasswordField
            id="register-password"
            testId="register-password"
            value={password}
            onValue={setPassword}
            error={fieldError(problem, "password")}
          />
          <button type="submit" disabled={busy} data-testid="register-submit">
            {t("register.submit")}
          </button>
          <p>
            <a href="/portal/login">{t("register.haveAccount")}</a>
          </p>
        </form>
      )}
    </Layout>
  );
}
