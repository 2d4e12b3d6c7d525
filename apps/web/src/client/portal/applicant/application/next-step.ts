import type { Application, Condition, Interview } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, formatDay, t } from "../../i18n/use.ts";

/*
 * What an application asks of its applicant now, and by when: the dashboard's "next step" and
 * the application page's "what happens next". From the status, and where they matter, the
 * interview to come and the conditions still waiting for evidence.
 */

export type NextStep = { text: string; deadline: string | null; urgent: boolean };

/** The live interview of an application, if any (the API lists at most one live). */
export const liveInterview = (interviews: Interview[]) =>
  interviews.find((i) => i.status !== "cancelled" && i.status !== "open") ?? null;

export function nextStep(
  a: Application,
  interview: Interview | null = null,
  conditions: Condition[] = [],
): NextStep {
  const day = (iso: string) => formatDay(iso);
  if (a.status === "draft") {
    const late = Date.parse(a.intake.deadline) <= Date.now();
    return {
      text: late
        ? t("tasks.deadlinePassed", { deadline: day(a.intake.deadline) })
        : t("next.draft", { deadline: day(a.intake.deadline) }),
      deadline: late ? null : a.intake.deadline,
      urgent: !late,
    };
  }
  if (a.status === "interviewing" && interview) {
    const when = formatDate(interview.startsAt);
    const key: MessageKey =
      interview.status === "invited"
        ? "next.interviewInvited"
        : interview.status === "reschedule_requested"
          ? "next.interviewRescheduling"
          : "next.interviewConfirmed";
    return {
      text: t(key, { when }),
      deadline: interview.startsAt,
      urgent: interview.status === "invited",
    };
  }
  if ((a.status === "offered" || a.status === "conditionally_offered") && a.offer) {
    const deadline = a.offer.respondBy;
    return { text: t(`next.${a.status}`, { deadline: day(deadline) }), deadline, urgent: true };
  }
  const pending = conditions.filter((c) => c.status === "pending");
  const waiting = pending.filter((c) => !c.evidenceDocumentId);
  if (a.status === "accepted" && waiting.length === 0 && pending.length > 0) {
    return { text: t("next.acceptedChecking"), deadline: null, urgent: false };
  }
  if (a.status === "accepted" && waiting.length > 0) {
    const deadline = waiting.map((c) => c.dueAt).sort()[0] ?? null;
    return {
      text: t("next.acceptedConditions", { deadline: deadline ? day(deadline) : "" }),
      deadline,
      urgent: true,
    };
  }
  if (a.status === "waitlisted" && a.waitlistPosition !== null) {
    return {
      text: t("next.waitlistedAt", { position: a.waitlistPosition }),
      deadline: null,
      urgent: false,
    };
  }
  return { text: t(`next.${a.status}` as MessageKey), deadline: null, urgent: false };
}
