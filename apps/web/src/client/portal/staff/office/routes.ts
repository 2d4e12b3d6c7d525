import type { MessageKey } from "../../i18n/index.ts";

/**
 * The office's own pages (catalogue, payments, integrations, data, the staff member's security),
 * merged into the staff route table (../routes.ts) and so into the portal's.
 */
export const OFFICE_ROUTES = {
  staffProgrammes: "/portal/staff/programmes",
  staffProgrammeNew: "/portal/staff/programmes/new",
  staffProgramme: "/portal/staff/programmes/:id",
  staffReasons: "/portal/staff/reasons",
  staffPayments: "/portal/staff/payments",
  staffWebhooks: "/portal/staff/webhooks",
  staffWebhook: "/portal/staff/webhooks/:id",
  staffDataRequests: "/portal/staff/data-requests",
  staffSecurity: "/portal/staff/security",
} as const;

export type OfficePageName = keyof typeof OFFICE_ROUTES;

/** The office's entries in the staff navigation: admins' pages, then everyone's own security. */
export const OFFICE_NAV: readonly { href: string; label: MessageKey; adminOnly: boolean }[] = [
  { href: OFFICE_ROUTES.staffProgrammes, label: "office.nav.programmes", adminOnly: true },
  { href: OFFICE_ROUTES.staffPayments, label: "office.nav.payments", adminOnly: true },
  { href: OFFICE_ROUTES.staffWebhooks, label: "office.nav.webhooks", adminOnly: true },
  { href: OFFICE_ROUTES.staffDataRequests, label: "office.nav.dataRequests", adminOnly: true },
  { href: OFFICE_ROUTES.staffSecurity, label: "office.nav.security", adminOnly: false },
];
