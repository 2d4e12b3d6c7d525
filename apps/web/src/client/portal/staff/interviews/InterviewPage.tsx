import type { Application, Interview } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../../api/client.ts";
import { t } from "../../i18n/use.ts";
import { pathId } from "../../routes.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { useStaffSession } from "../ui/session.ts";
import { interviewsApi } from "./api.ts";
import { CancelForm } from "./CancelForm.tsx";
import { applicantName, hasStarted, isLive } from "./format.ts";
import { InterviewDetails } from "./InterviewDetails.tsx";
import { OutcomeForm } from "./OutcomeForm.tsx";
import { SlotForm } from "./SlotForm.tsx";

type Done = "created" | "rescheduled" | "cancelled" | null;

/**
 * One interview: its facts and the application invited to it; for admins, moving it to a new
 * time or place (with the panel's clashes warned of) and cancelling it; for its panel, once it
 * has started, the outcome and score.
 */
export default function InterviewPage() {
  const session = useStaffSession();
  const id = pathId();
  const [interview, setInterview] = useState<Interview | null>(null);
  const [application, setApplication] = useState<Application | null>(null);
  const [scale, setScale] = useState<{ min: number; max: number } | null>(null);
  const [refused, setRefused] = useState<ApiError | null>(null);
  const [done, setDone] = useState<Done>(
    new URLSearchParams(location.search).get("saved") === "created" ? "created" : null,
  );
  useEffect(() => {
    if (session.status !== "signed-in") return;
    interviewsApi.get(id).then((a) => (a.ok ? setInterview(a.data) : setRefused(a)));
  }, [session.status]);
  useEffect(() => {
    const applicationId = interview?.applicationId;
    if (!applicationId || application?.id === applicationId) return;
    interviewsApi.application(applicationId).then((a) => {
      if (!a.ok) return;
      setApplication(a.data);
      interviewsApi.rubric(a.data.program.id).then((r) => r.ok && setScale(r.data.scale));
    });
  }, [interview?.applicationId]);
  const me = session.status === "signed-in" ? session.user : null;
  const isAdmin = me?.role === "admin";
  const changed = (next: Interview, what: Done) => {
    setInterview(next);
    setDone(what);
  };
  const inReview = application?.status === "under_review" || application?.status === "interviewing";
  return (
    <StaffLayout session={session}>
      <p>
        <a href="/portal/staff/interviews">{t("decide.interviews.back")}</a>
      </p>
      {refused && <StaffProblem problem={refused.problem} />}
      {!interview && !refused && <p aria-busy="true">{t("common.loading")}</p>}
      {done && (
        <p class="success" role="status" data-testid="interview-saved">
          {t(`decide.interview.done.${done}`)}
        </p>
      )}
      {interview && (
        <>
          <section class="panel" aria-labelledby="interview-heading">
            <h2 id="interview-heading">
              {application
                ? t("decide.interview.of", { name: applicantName(application) })
                : t("decide.interview.openSlot")}
            </h2>
            <InterviewDetails interview={interview} />
            {application && (
              <p>
                <a href={`/portal/staff/applications/${application.id}`}>
                  {t("decide.interview.application", {
                    name: applicantName(application),
                    programme: application.program.code,
                  })}
                </a>
              </p>
            )}
            {!interview.applicationId && isLive(interview) && (
              <p>{t("decide.interview.howToInvite")}</p>
            )}
          </section>
          {me &&
            inReview &&
            isLive(interview) &&
            hasStarted(interview) &&
            interview.panel.some((p) => p.id === me.id) && (
              <section class="panel" aria-label={t("decide.outcome.title")}>
                <OutcomeForm
                  interview={interview}
                  myId={me.id}
                  scale={scale}
                  onSaved={(next) => setInterview(next)}
                />
              </section>
            )}
          {isAdmin && isLive(interview) && (
            <>
              <section class="panel" aria-labelledby="reschedule-heading">
                <h2 id="reschedule-heading">{t("decide.reschedule.title")}</h2>
                <p class="hint">
                  {t(
                    interview.applicationId
                      ? "decide.reschedule.hint"
                      : "decide.reschedule.hintOpen",
                  )}
                </p>
                <SlotForm
                  key={interview.updatedAt}
                  interview={interview}
                  save={({ panel: _panel, ...move }) => {
                    // A new attempt: the last one's "moved" no longer says what happened.
                    setDone(null);
                    return interviewsApi.reschedule(interview.id, move);
                  }}
                  onSaved={(next) => changed(next, "rescheduled")}
                  submitLabel={t("decide.reschedule.save")}
                  testId="interview-reschedule"
                  headingLevel={3}
                />
              </section>
              <section class="panel" aria-labelledby="cancel-heading">
                <h2 id="cancel-heading">{t("decide.cancel.title")}</h2>
                <CancelForm
                  interview={interview}
                  onCancelled={(next) => changed(next, "cancelled")}
                />
              </section>
            </>
          )}
        </>
      )}
    </StaffLayout>
  );
}
