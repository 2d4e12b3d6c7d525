import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../../api/client.ts";
import type { Application, Document } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { pathId } from "../../routes.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { staffApi } from "../api.ts";
import { OfficePanels } from "../office/OfficePanels.tsx";
import type { ApplicationReviews } from "../types.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { DecisionForm } from "./DecisionForm.tsx";
import { DocumentPreviews } from "./DocumentPreviews.tsx";
import { ReviewsSummary } from "./ReviewsSummary.tsx";
import { ScoreForm } from "./ScoreForm.tsx";
import { SeatCounts } from "./SeatCounts.tsx";

/** Decisions are made on applications under review (the lifecycle table, docs/admissions/applications.md). */
const DECIDABLE = new Set(["under_review"]);

/**
 * One application for the office: the applicant's details, the documents previewed inline, the
 * reviews so far; the assigned reviewer's scoring form; an admin's decision with the seats.
 */
export default function StaffApplicationPage() {
  const session = useStaffSession();
  const id = pathId();
  const [application, setApplication] = useState<Application | null>(null);
  const [documents, setDocuments] = useState<Document[]>([]);
  const [reviews, setReviews] = useState<ApplicationReviews | null>(null);
  const [attempts, setAttempts] = useState(0);
  const [decided, setDecided] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const loadReviews = () =>
    staffApi.reviews(id).then((a) => (a.ok ? setReviews(a.data) : setFailure(a)));
  useEffect(() => {
    if (session.status !== "signed-in") return;
    staffApi.application(id).then((a) => (a.ok ? setApplication(a.data) : setFailure(a)));
    staffApi.documents(id).then((a) => a.ok && setDocuments(a.data.results));
    loadReviews();
  }, [session.status]);
  const me = session.status === "signed-in" ? session.user : null;
  const assigned = reviews?.assignments.some((a) => a.reviewer.id === me?.id) ?? false;
  const mine = reviews?.reviews.find((r) => r.reviewer.id === me?.id);
  return (
    <StaffLayout session={session}>
      {failure && <ProblemNotice problem={failure.problem} />}
      {application && (
        <>
          <section class="panel" aria-labelledby="staff-applicant">
            <h2 id="staff-applicant">{application.applicant.fullName}</h2>
            <dl class="details">
              <dt>{t("staff.col.programme")}</dt>
              <dd>
                {application.program.code} · {application.program.name} ({application.intake.term})
              </dd>
              <dt>{t("staff.col.status")}</dt>
              <dd data-testid="application-status" data-status={application.status}>
                {t(`status.${application.status}` as MessageKey)}
              </dd>
              <dt>{t("staff.col.submitted")}</dt>
              <dd>{application.submittedAt ? formatDate(application.submittedAt) : "—"}</dd>
              <dt>{t("staff.app.qualification")}</dt>
              <dd>
                {[
                  application.priorQualification,
                  application.priorInstitution,
                  application.graduationYear,
                ]
                  .filter(Boolean)
                  .join(" · ") || "—"}
              </dd>
            </dl>
            <h3>{t("staff.app.statement")}</h3>
            <p class="statement">{application.personalStatement || "—"}</p>
          </section>
          <section aria-labelledby="staff-documents">
            <h2 id="staff-documents">{t("staff.documents.title")}</h2>
            <DocumentPreviews documents={documents} />
          </section>
          {reviews && (
            <section aria-labelledby="staff-reviews">
              <h2 id="staff-reviews">{t("staff.reviews.title")}</h2>
              <ReviewsSummary reviews={reviews} />
              {assigned && reviews.rubric && application.status === "under_review" && (
                <>
                  <h3>{t("staff.score.title")}</h3>
                  <ScoreForm
                    applicationId={application.id}
                    rubric={reviews.rubric}
                    mine={mine}
                    onSaved={loadReviews}
                  />
                </>
              )}
              {assigned && !reviews.rubric && <p>{t("staff.score.noRubric")}</p>}
            </section>
          )}
          {session.status === "signed-in" && (
            <OfficePanels session={session} application={application} />
          )}
          {me?.role === "admin" && (
            <section aria-labelledby="staff-decision">
              <h2 id="staff-decision">{t("staff.decision.title")}</h2>
              {decided && (
                <p role="status" data-testid="decided">
                  {t("staff.decision.done", {
                    status: t(`status.${application.status}` as MessageKey),
                  })}
                </p>
              )}
              <SeatCounts intakeId={application.intake.id} refresh={attempts} />
              <p>
                <a href={`/portal/staff/intakes/${application.intake.id}/waitlist`}>
                  {t("staff.waitlist.link", { term: application.intake.term })}
                </a>
              </p>
              {DECIDABLE.has(application.status) ? (
                <DecisionForm
                  application={application}
                  onDecided={(next) => {
                    setApplication(next);
                    setDecided(true);
                  }}
                  onTried={() => setAttempts((n) => n + 1)}
                />
              ) : (
                <p data-testid="decision-closed">{t("staff.decision.closed")}</p>
              )}
            </section>
          )}
        </>
      )}
    </StaffLayout>
  );
}
