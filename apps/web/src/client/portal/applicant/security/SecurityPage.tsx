import { t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { useSession } from "../../ui/session.ts";
import { AccountLinks } from "../account/AccountLinks.tsx";
import { EmailChangeForm } from "../account/EmailChangeForm.tsx";
import { PasswordForm } from "../account/PasswordForm.tsx";
import { Sessions } from "../account/Sessions.tsx";
import { Verification } from "../account/Verification.tsx";

/** Where the security emails lead: sign-ins, password, email address and its verification. */
export default function SecurityPage() {
  const session = useSession(true);
  return (
    <Layout session={session}>
      {session.status === "signed-in" && (
        <>
          <AccountLinks />
          <section aria-labelledby="sessions-heading">
            <h2 id="sessions-heading">{t("account.sessions")}</h2>
            <Sessions />
          </section>
          <section aria-labelledby="password-heading">
            <h2 id="password-heading">{t("account.changePassword")}</h2>
            <PasswordForm />
          </section>
          <section aria-labelledby="email-heading">
            <h2 id="email-heading">{t("account.changeEmail")}</h2>
            <Verification />
            <EmailChangeForm />
          </section>
        </>
      )}
    </Layout>
  );
}
