import type { ComponentType } from "preact";
import { OFFICE_PAGES } from "./office/pages.ts";
import type { StaffPageName } from "./routes.ts";

/** The staff pages' code, each its own chunk (merged into the portal's entry, ../portal-page.tsx). */
export const STAFF_PAGES: Record<StaffPageName, () => Promise<{ default: ComponentType }>> = {
  staffLogin: () => import("./login/StaffLoginPage.tsx"),
  staffQueue: () => import("./queue/StaffQueuePage.tsx"),
  staffApplication: () => import("./application/StaffApplicationPage.tsx"),
  staffStats: () => import("./stats/StaffStatsPage.tsx"),
  staffAudit: () => import("./audit/StaffAuditPage.tsx"),
  staffOutbox: () => import("./outbox/StaffOutboxPage.tsx"),
  staffUsers: () => import("./users/StaffUsersPage.tsx"),
  staffWaitlist: () => import("./waitlist/StaffWaitlistPage.tsx"),
  ...OFFICE_PAGES,
  staffInterviews: () => import("./interviews/InterviewsPage.tsx"),
  staffInterviewNew: () => import("./interviews/NewSlotPage.tsx"),
  staffInterview: () => import("./interviews/InterviewPage.tsx"),
  staffDeferrals: () => import("./deferrals/DeferralsPage.tsx"),
  staffCalibration: () => import("./calibration/CalibrationPage.tsx"),
};
