import type { Interview } from "@platform/admissions/models";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { formatSpan } from "../ui/format.ts";

/** The link's host for its text ("meet.example.org"), or the link itself if it is not a URL. */
const hostOf = (link: string) => {
  try {
    return new URL(link).host;
  } catch {
    return link;
  }
};

/** An interview's facts: when, where, who sits on the panel, its state, notes and scores. */
export function InterviewDetails({ interview }: { interview: Interview }) {
  return (
    <dl class="details" data-testid="interview-details" data-status={interview.status}>
      <dt>{t("decide.interview.when")}</dt>
      <dd>{formatSpan(interview.startsAt, interview.endsAt)}</dd>
      <dt>{t("decide.interview.where")}</dt>
      <dd>
        {interview.meetingUrl ? (
          <a href={interview.meetingUrl} rel="noopener noreferrer" target="_blank">
            {t("decide.interview.online", { host: hostOf(interview.meetingUrl) })}
          </a>
        ) : (
          interview.location
        )}
      </dd>
      <dt>{t("decide.interview.panel")}</dt>
      <dd>{interview.panel.map((p) => p.fullName).join(", ") || "—"}</dd>
      <dt>{t("decide.interview.status")}</dt>
      <dd data-testid="interview-status">
        {t(`decide.interview.status.${interview.status}` as MessageKey)}
      </dd>
      {interview.applicantNote && (
        <>
          <dt>{t("decide.interview.applicantNote")}</dt>
          <dd class="statement">{interview.applicantNote}</dd>
        </>
      )}
      {interview.cancelReason && (
        <>
          <dt>{t("decide.interview.cancelReason")}</dt>
          <dd class="statement">{interview.cancelReason}</dd>
        </>
      )}
      {interview.scores.length > 0 && (
        <>
          <dt>{t("decide.interview.scores")}</dt>
          <dd>
            <ul data-testid="interview-scores">
              {interview.scores.map((s) => (
                <li key={s.panelist.id}>
                  {t("decide.interview.scoreBy", { name: s.panelist.fullName, score: s.score })}
                  {s.comment && <span class="statement"> — {s.comment}</span>}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}
