import type { Application, Interview } from "@platform/admissions/models";
import { t } from "../../i18n/use.ts";

/** Interviews that still hold a panel's time: not cancelled (docs/admissions/interviews.md). */
export const isLive = (interview: Interview) => interview.status !== "cancelled";

/** The application is booked on it (held or to come): a second invitation is refused until it is cancelled. */
export const holdsInvitation = (interview: Interview) =>
  interview.status === "invited" ||
  interview.status === "confirmed" ||
  interview.status === "reschedule_requested";

/** Over once its start has passed: the applicant can no longer change it, the panel scores it. */
export const hasStarted = (interview: Interview, now = Date.now()) =>
  Date.parse(interview.startsAt) <= now;

/** Still to come: live and not yet started (an invitation, a reschedule, a cancel). */
export const isUpcoming = (interview: Interview, now = Date.now()) =>
  isLive(interview) && !hasStarted(interview, now);

/**
 * The applicant's name, or the words for a blind review: the API gives a blind programme's
 * reviewers an empty email and a placeholder name (docs/admissions/review.md), and the page
 * says that in its own language rather than the API's English.
 */
export const applicantName = (application: Application) =>
  application.applicant.email === "" ? t("decide.blind.applicant") : application.applicant.fullName;

/** `<input type="datetime-local">` speaks local time without a zone; the API speaks ISO. */
export function fromLocalInput(value: string): string {
  const at = new Date(value);
  return value === "" || Number.isNaN(at.getTime()) ? value : at.toISOString();
}

export function toLocalInput(iso: string): string {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The zone the page's times are in, named for the hint ("Europe/Paris"). */
export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export const minutesOf = (interview: Interview) =>
  Math.round((Date.parse(interview.endsAt) - Date.parse(interview.startsAt)) / 60_000);
