import type { ComponentChildren } from "preact";
import { admissions } from "../../api/admissions.ts";
import { t } from "../../i18n/use.ts";
import { LanguageSwitch } from "../../ui/LanguageSwitch.tsx";
import { OFFICE_NAV } from "../office/routes.ts";
import { STAFF_LOGIN, type StaffSession } from "./session.ts";

/** The office's navigation: the queue, signing out, and the language switch. */
export function StaffLayout({
  session,
  children,
}: {
  session: StaffSession | { status: "anonymous" };
  children: ComponentChildren;
}) {
  const here = location.pathname;
  const link = (href: string, label: string) => (
    <li>
      <a href={href} aria-current={here === href ? "page" : undefined}>
        {label}
      </a>
    </li>
  );
  const signOut = async () => {
    await admissions.logout();
    location.assign(STAFF_LOGIN);
  };
  return (
    <>
      <nav class="portal-nav" aria-label={t("staff.nav.label")}>
        <ul>
          {session.status === "signed-in" && (
            <>
              {link("/portal/staff/", t("staff.nav.queue"))}
              {link("/portal/staff/interviews", t("decide.nav.interviews"))}
              {session.user.role === "admin" && (
                <>
                  {link("/portal/staff/stats", t("staff.nav.stats"))}
                  {link("/portal/staff/audit", t("staff.nav.audit"))}
                  {link("/portal/staff/outbox", t("staff.nav.outbox"))}
                  {link("/portal/staff/users", t("staff.nav.users"))}
                  {link("/portal/staff/deferrals", t("decide.nav.deferrals"))}
                  {link("/portal/staff/calibration", t("decide.nav.calibration"))}
                </>
              )}
              {OFFICE_NAV.filter((e) => !e.adminOnly || session.user.role === "admin").map((e) =>
                link(e.href, t(e.label)),
              )}
              <li>
                <span class="muted" data-testid="staff-role">
                  {t(session.user.role === "admin" ? "staff.role.admin" : "staff.role.reviewer")}
                </span>
              </li>
              <li>
                <button type="button" class="link-button" onClick={signOut} data-testid="logout">
                  {t("nav.logout")}
                </button>
              </li>
            </>
          )}
        </ul>
        <LanguageSwitch />
      </nav>
      {session.status === "loading" && <p aria-busy="true">{t("common.loading")}</p>}
      {session.status === "not-staff" && <p role="alert">{t("staff.notStaff")}</p>}
      {(session.status === "signed-in" || session.status === "anonymous") && children}
    </>
  );
}
