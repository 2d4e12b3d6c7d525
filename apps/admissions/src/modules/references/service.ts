/*
 * References (issue 19): the applicant names referees; each is emailed a single-use link to a
 * portal page where, without an account, they write the reference or upload it as a PDF.
 * Referees who have not answered are reminded by the background pass. Applicants see each
 * request's status, never its content; admins and the reviewers assigned read it.
 * The module's public face: its controller, the app's wiring and data rights use it.
 */

export { getContent, openFile } from "./internal/content.ts";
export {
  LINK_LIFETIME_MS as REFERENCE_LINK_LIFETIME_MS,
  MAX_REFEREES,
  MAX_REMINDERS,
  REFEREES_PER_HOUR,
  type ReferenceSettings,
  type ReferencesDeps,
} from "./internal/deps.ts";
export { REFERENCE_PAGE } from "./internal/emails.ts";
export { eraseReferences } from "./internal/erase.ts";
export { openLink, submitFile, submitText } from "./internal/link.ts";
export { addReferee, listForApplication, removeReferee } from "./internal/referees.ts";
export { type RefereeRemindersDeps, sendRefereeReminders } from "./internal/reminders.ts";
export { referencePath } from "./queries.ts";
