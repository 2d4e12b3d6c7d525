/*
 * Deadlines, reminders and staff digests (issue 19), sent by the background pass through the
 * outbox, each at most once (reminders_sent): draft deadline notices to applicants, decision
 * due reminders to reviewers, the daily digest of new submissions to admins.
 * The module's public face: the app's wiring imports from here.
 */
export type { ReminderSettings, RemindersDeps } from "./internal/claim.ts";
export { sendDecisionDueReminders } from "./internal/decisions.ts";
export { sendAdminDigests } from "./internal/digest.ts";
export { sendDraftDeadlineNotices } from "./internal/drafts.ts";
