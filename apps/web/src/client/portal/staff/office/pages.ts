import type { ComponentType } from "preact";
import type { OfficePageName } from "./routes.ts";

/** The office pages' code, each its own chunk (merged into ../pages.ts). */
export const OFFICE_PAGES: Record<OfficePageName, () => Promise<{ default: ComponentType }>> = {
  staffProgrammes: () => import("../programmes/ProgrammesPage.tsx"),
  staffProgrammeNew: () => import("../programmes/NewProgrammePage.tsx"),
  staffProgramme: () => import("../programmes/ProgrammePage.tsx"),
  staffReasons: () => import("../reasons/ReasonsPage.tsx"),
  staffPayments: () => import("../payments/PaymentsDeskPage.tsx"),
  staffWebhooks: () => import("../webhooks/WebhooksPage.tsx"),
  staffWebhook: () => import("../webhooks/WebhookPage.tsx"),
  staffDataRequests: () => import("../data-requests/DataRequestsPage.tsx"),
  staffSecurity: () => import("../security/SecurityPage.tsx"),
};
