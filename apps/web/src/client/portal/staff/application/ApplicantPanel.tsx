import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { type ApplicationView, isBlindToMe } from "./view.ts";

/**
 * Who applied, for what, and what they wrote. A blind programme says so: to its reviewers, who
 * get no name from the API (docs/admissions/review.md), and to admins, who see everything but
 * should know the reviewers do not.
 */
export function ApplicantPanel({ view }: { view: ApplicationView }) {
  const { application } = view;
  const blind = view.reviews?.blindReview ?? false;
  return (
    <section class="panel" aria-labelledby="staff-applicant">
      <h2 id="staff-applicant">
        {isBlindToMe(view) ? t("decide.blind.applicant") : application.applicant.fullName}
      </h2>
      {blind && (
        <p class="notice" data-testid="blind-review">
          {t(view.isAdmin ? "decide.blind.admin" : "decide.blind.reviewer")}
        </p>
      )}
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
  );
}
