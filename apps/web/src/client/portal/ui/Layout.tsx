import type { ComponentChildren } from "preact";
import { admissions } from "../api/admissions.ts";
import { t } from "../i18n/use.ts";
import { LanguageSwitch } from "./LanguageSwitch.tsx";
import type { SessionState } from "./session.ts";

/** The portal's own navigation (the site's is in the server-rendered header), and the language switch. */
export function Layout({
  session,
  children,
}: {
  session: SessionState;
  children: ComponentChildren;
}) {
  const here = location.pathname;
  const link = (href: string, label: string, testId?: string) => (
    <li>
      <a href={href} aria-current={here === href ? "page" : undefined} data-testid={testId}>
        {label}
      </a>
    </li>
  );
  const signOut = async () => {
    await admissions.logout();
    location.assign("/portal/");
  };
  return (
    <>
      <nav class="portal-nav" aria-label={t("nav.label")}>
        <ul>
          {link("/portal/", t("nav.programs"))}
          {session.status === "signed-in" && link("/portal/applications/", t("nav.applications"))}
          {session.status === "signed-in" && link("/portal/account", t("nav.account"))}
          {session.status === "anonymous" && link("/portal/login", t("nav.login"))}
          {session.status === "anonymous" && link("/portal/register", t("nav.register"))}
          {session.status === "signed-in" && (
            <li>
              <button type="button" class="link-button" onClick={signOut} data-testid="logout">
                {t("nav.logout")}
              </button>
            </li>
          )}
        </ul>
        <LanguageSwitch />
      </nav>
      {session.status === "loading" ? <p aria-busy="true">{t("common.loading")}</p> : children}
    </>
  );
}
