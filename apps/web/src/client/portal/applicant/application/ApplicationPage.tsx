import { t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { ApplicationTitle } from "./ApplicationTitle.tsx";
import { AfterSubmission } from "./after/AfterSubmission.tsx";
import { TaskList } from "./TaskList.tsx";
import { useApplication } from "./useApplication.ts";

/**
 * One application: a draft is its task list (each section on a page of its own, then "check
 * your answers"); once sent, what happens next and everything the applicant can do about it.
 */
export default function ApplicationPage() {
  const { session, application, setApplication, failure } = useApplication();
  return (
    <Layout session={session}>
      {failure && (
        <>
          <ProblemNotice problem={failure.problem} testId="application-problem" />
          <p>
            <a href="/portal/applications/">{t("confirmation.toDashboard")}</a>
          </p>
        </>
      )}
      {application && (
        <>
          <ApplicationTitle application={application} />
          {application.status === "draft" ? (
            <TaskList application={application} />
          ) : (
            <AfterSubmission application={application} onChange={setApplication} />
          )}
        </>
      )}
    </Layout>
  );
}
