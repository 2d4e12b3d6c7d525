import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { EmailField } from "../../ui/AccountFields.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { useSend } from "../../ui/useForm.ts";

/** The API answers the same for every address (no enumeration), and so does this page. */
export default function ForgotPasswordPage() {
  const session = useSession();
  const [email, setEmail] = useState("");
  const { busy, problem, done, send } = useSend<unknown>();
  const submit = (event: Event) => {
    event.preventDefault();
    send(() => admissions.requestReset(email));
  };
  return (
    <Layout session={session}>
      {done ? (
        <p role="status" data-testid="reset-requested">
          {t("forgot.sent")}
        </p>
      ) : (
        <form onSubmit={submit} class="form" noValidate>
          {problem && <ProblemNotice problem={problem} />}
          <EmailField id="forgot-email" testId="forgot-email" value={email} onValue={setEmail} />
          <button type="submit" disabled={busy} data-testid="forgot-submit">
            {t("forgot.submit")}
          </button>
        </form>
      )}
    </Layout>
  );
}
