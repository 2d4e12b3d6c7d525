import { t } from "../../i18n/use.ts";
import { applicationPath } from "../../routes.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useApplication } from "../application/useApplication.ts";

/**
 * The reference to quote is the application's id, whole, as the admissions emails give it
 * ("Application reference: …") and the office looks it up. A shorter form would not do: the id
 * is a UUIDv7, whose first blocks are its creation time, shared by applications made together.
 */

/**
 * GOV.UK's confirmation page: the panel says it is sent and gives the reference to quote, then
 * what happens next. Opened after "Accept and send" (check your answers).
 */
export default function SubmittedPage() {
  const { session, id, application, failure } = useApplication();
  return (
    <Layout session={session}>
      {failure && <ProblemNotice problem={failure.problem} testId="application-problem" />}
      {application?.status === "draft" && (
        <p>
          <a href={applicationPath(id)}>{t("tasks.check")}</a>
        </p>
      )}
      {application && application.status !== "draft" && (
        <>
          <div class="confirmation-panel" data-testid="confirm-submission">
            <h2>{t("page.submitted.title")}</h2>
            <p>
              {application.program.name} · {application.intake.term}
            </p>
            <p>
              {t("confirmation.reference")}
              <br />
              <strong data-testid="application-reference">{id}</strong>
            </p>
          </div>
          <p>{t("confirmation.emailed", { email: application.applicant.email })}</p>
          <h2>{t("confirmation.nextHeading")}</h2>
          <p>{t("confirmation.next")}</p>
          <ul>
            <li>
              <a href={applicationPath(id)}>{t("confirmation.toApplication")}</a>
            </li>
            <li>
              <a href="/portal/applications/">{t("confirmation.toDashboard")}</a>
            </li>
          </ul>
        </>
      )}
    </Layout>
  );
}
