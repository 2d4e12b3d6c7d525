import type { Interview } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { useSend } from "../../ui/useForm.ts";
import type { ApplicationView } from "../application/view.ts";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { interviewsApi } from "./api.ts";
import { hasStarted, holdsInvitation, isLive, isUpcoming } from "./format.ts";
import { InterviewDetails } from "./InterviewDetails.tsx";
import { InviteForm } from "./InviteForm.tsx";
import { OutcomeForm } from "./OutcomeForm.tsx";

/** While it is reviewed or interviewed an application can be invited and its interviews scored. */
const IN_REVIEW = new Set(["under_review", "interviewing"]);

/**
 * The application's interviews on its page: each with its time, place, panel and scores (and
 * a link to reschedule or cancel it); an admin's invitation to an open slot; the outcome form
 * for a panel member once it has started; and, after it, the way back to the reviewers.
 */
export function InterviewsPanel({ view }: { view: ApplicationView }) {
  const { application, me } = view;
  const [interviews, setInterviews] = useState<Interview[] | null>(null);
  const back = useSend();
  const load = () =>
    interviewsApi
      .list({ applicationId: application.id })
      .then((a) => setInterviews(a.ok ? a.data.results : []));
  useEffect(() => {
    load();
  }, [application.id, application.version]);
  const inReview = IN_REVIEW.has(application.status);
  if (!interviews) return null;
  if (interviews.length === 0 && !(inReview && view.isAdmin)) return null;
  const upcoming = interviews.some((i) => isUpcoming(i));
  const booked = interviews.some(holdsInvitation);
  const scale = view.reviews?.rubric?.scale ?? null;
  return (
    <section class="panel" aria-labelledby="staff-interviews" data-testid="interviews-panel">
      <h2 id="staff-interviews">{t("decide.interviews.title")}</h2>
      {interviews.length === 0 && <p>{t("decide.interviews.none")}</p>}
      <ul class="interview-list">
        {interviews.map((interview) => (
          <li key={interview.id} data-testid="application-interview">
            <InterviewDetails interview={interview} />
            <p>
              <a href={`/portal/staff/interviews/${interview.id}`}>
                {t(view.isAdmin ? "decide.interviews.manage" : "decide.interviews.open")}
              </a>
            </p>
            {inReview &&
              isLive(interview) &&
              hasStarted(interview) &&
              interview.panel.some((p) => p.id === me.id) && (
                <OutcomeForm
                  interview={interview}
                  myId={me.id}
                  scale={scale}
                  onSaved={() => {
                    load();
                    view.reload();
                  }}
                />
              )}
          </li>
        ))}
      </ul>
      {view.isAdmin && inReview && !booked && (
        <>
          <h3>{t("decide.invite.title")}</h3>
          <InviteForm
            application={application}
            onInvited={() => {
              load();
              view.reload();
            }}
          />
        </>
      )}
      {application.status === "interviewing" && !upcoming && (
        <>
          {back.problem && <StaffProblem problem={back.problem} />}
          <button
            type="button"
            class="secondary"
            disabled={back.busy}
            onClick={async () => {
              if (await back.send(() => interviewsApi.backToReview(application))) view.reload();
            }}
            data-testid="back-to-review"
          >
            {t("decide.interviews.backToReview")}
          </button>
        </>
      )}
    </section>
  );
}
