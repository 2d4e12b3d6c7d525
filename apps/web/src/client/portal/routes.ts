import { STAFF_ROUTES } from "./staff/routes.ts";

/**
 * Every portal page: its path (served by the web app's portal module, which renders the shell)
 * and its name (the shell's `data-page`, which the entry script maps to the page's code). The
 * `/account/…` and `/payments/return` paths are fixed by the admissions API's emails and Stripe's
 * return URL (docs/admissions/accounts.md, payments.md). Staff pages are to be added beside these, under /portal/staff/.
 */
export const APPLICANT_ROUTES = {
  programs: "/portal/",
  program: "/portal/programs/:id",
  login: "/portal/login",
  register: "/portal/register",
  applications: "/portal/applications/",
  application: "/portal/applications/:id",
  // A draft's sections, each a page of its own (one thing per page), then check and send.
  sectionDetails: "/portal/applications/:id/details",
  sectionQualifications: "/portal/applications/:id/qualifications",
  sectionStatement: "/portal/applications/:id/statement",
  sectionDocuments: "/portal/applications/:id/documents",
  sectionReferees: "/portal/applications/:id/referees",
  sectionFee: "/portal/applications/:id/fee",
  checkAnswers: "/portal/applications/:id/check",
  submitted: "/portal/applications/:id/submitted",
  // After submission: the place's own decisions.
  withdraw: "/portal/applications/:id/withdraw",
  deferral: "/portal/applications/:id/deferral",
  receipt: "/portal/receipts/:id",
  account: "/portal/account",
  profile: "/account/profile",
  security: "/account/security",
  data: "/account/data",
  forgotPassword: "/account/forgot-password",
  resetPassword: "/account/reset-password",
  verifyEmail: "/account/verify-email",
  confirmEmailChange: "/account/confirm-email-change",
  paymentReturn: "/payments/return",
  /** A referee's page, from the emailed link (no account): docs/admissions/references.md. */
  reference: "/references/write",
} as const;

/** Every portal page, the applicant's and the office's. */
export const PORTAL_ROUTES = { ...APPLICANT_ROUTES, ...STAFF_ROUTES } as const;

export type PortalPageName = keyof typeof PORTAL_ROUTES;

/** Pages opened from an email link carrying a token: no-store, and the token leaves the address bar. */
export const TOKEN_PAGES: readonly PortalPageName[] = [
  "resetPassword",
  "verifyEmail",
  "confirmEmailChange",
  "reference",
];

/** The `:id` of the current address (the last non-empty path segment). */
export const pathId = () => location.pathname.split("/").filter(Boolean).at(-1) ?? "";

/** The application's id on its page and its sections' (`/portal/applications/<id>/…`). */
export const applicationIdOf = () => {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts[parts.indexOf("applications") + 1] ?? "";
};

/** An application's page, or one of its sections'. */
export const applicationPath = (id: string, section = "") =>
  `/portal/applications/${id}${section ? `/${section}` : ""}`;
