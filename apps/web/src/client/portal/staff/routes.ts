/**
 * The admissions office's pages (reviewers and admins), beside the applicant's. Merged into the
 * portal's one route table (../routes.ts), so the server renders their shells like any other.
 */
import { OFFICE_ROUTES } from "./office/routes.ts";

export const STAFF_ROUTES = {
  staffLogin: "/portal/staff/login",
  staffQueue: "/portal/staff/",
  staffApplication: "/portal/staff/applications/:id",
  staffStats: "/portal/staff/stats",
  staffAudit: "/portal/staff/audit",
  staffOutbox: "/portal/staff/outbox",
  staffUsers: "/portal/staff/users",
  staffWaitlist: "/portal/staff/intakes/:id/waitlist",
  ...OFFICE_ROUTES,
  staffInterviews: "/portal/staff/interviews",
  staffInterviewNew: "/portal/staff/interviews/new",
  staffInterview: "/portal/staff/interviews/:id",
  staffDeferrals: "/portal/staff/deferrals",
  staffCalibration: "/portal/staff/calibration",
} as const;

export type StaffPageName = keyof typeof STAFF_ROUTES;

/** Pages that preview applicants' documents: their CSP also allows blob: images and frames. */
export const PREVIEW_PAGES: readonly string[] = ["staffApplication"];

/** A segment of the current address, counted from the end (-1 is the last non-empty one). */
export const pathSegment = (fromEnd: number) =>
  location.pathname.split("/").filter(Boolean).at(fromEnd) ?? "";
