/*
 * Interviews (issue 19): slots with a panel, an application invited to one (which moves it to
 * interviewing), the applicant's confirmation, reschedule request or cancellation, emails with
 * an iCalendar attachment, and the panel's scores, shown beside the review's weighted total.
 * The module's public face: its controller, the reviews module and the app import from here.
 */
export { type InterviewsDeps, parseMailbox } from "./internal/deps.ts";
export { interviewEffects } from "./internal/effects.ts";
export { calendarOf, escapeText, foldLine } from "./internal/ics.ts";
export {
  cancelInterview,
  confirmInterview,
  inviteToInterview,
  requestReschedule,
} from "./internal/invitations.ts";
export { getInterview, listInterviews } from "./internal/read.ts";
export { saveInterviewScore } from "./internal/scores.ts";
export { createSlot, rescheduleInterview } from "./internal/slots.ts";
