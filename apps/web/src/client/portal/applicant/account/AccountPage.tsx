import { t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { useSession } from "../../ui/session.ts";
import { AccountLinks } from "./AccountLinks.tsx";
import { EmailChangeForm } from "./EmailChangeForm.tsx";
import { PasswordForm } from "./PasswordForm.tsx";
import { Sessions } from "./Sessions.tsx";
import { Verification } from "./Verification.tsx";

export default function AccountPage() {
  const session = useSession(true);
  return (
    <Layout session={session}>
      {session.status === "signed-in" && (
        <>
          <AccountLinks />
          <section aria-labelledby="profile-heading">
            <h2 id="profile-heading">{t("account.profile")}</h2>
            <p data-testid="account-name">{session.user.fullName}</p>
            <Verification />
          </section>
          <section aria-labelledby="password-heading">
            <h2 id="password-heading">{t("account.changePassword")}</h2>
            <PasswordForm />
          </section>
          <section aria-labelledby="email-heading">
            <h2 id="email-heading">{t("account.changeEmail")}</h2>
            <EmailChangeForm />
          </section>
          <section aria-labelledby="sessions-heading">
            <h2 id="sessions-heading">{t("account.sessions")}</h2>
            <Sessions />
          </section>
        </>
      )}
    </Layout>
  );
}
