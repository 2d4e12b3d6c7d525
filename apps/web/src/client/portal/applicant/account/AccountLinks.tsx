import { t } from "../../i18n/use.ts";

const PAGES = [
  { href: "/portal/account", key: "accountNav.overview" },
  { href: "/account/profile", key: "accountNav.profile" },
  { href: "/account/security", key: "accountNav.security" },
  { href: "/account/data", key: "accountNav.data" },
] as const;

/** The account's own pages, linked from each of them (the portal's navigation stays short). */
export function AccountLinks() {
  return (
    <nav class="account-links" aria-label={t("accountNav.label")}>
      <ul>
        {PAGES.map((page) => (
          <li key={page.href}>
            <a
              href={page.href}
              aria-current={location.pathname === page.href ? "page" : undefined}
              data-testid={`account-link-${page.key.split(".")[1]}`}
            >
              {t(page.key)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
