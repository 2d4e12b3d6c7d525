import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../../api/client.ts";
import type { Application, Document } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { pathId } from "../../routes.ts";
import { staffApi } from "../api.ts";
import type { ApplicationReviews } from "../types.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { useStaffSession } from "../ui/session.ts";
import { APPLICATION_PANELS } from "./panels.ts";
import type { ApplicationView } from "./view.ts";

/**
 * One application for the office, as a list of panels (panels.ts): who applied, the documents
 * beside the rubric and the reviews, interviews, the decision, and the offer with its
 * conditions, letter and deferrals. The page loads what they share; each panel loads its own.
 */
export default function StaffApplicationPage() {
  const session = useStaffSession();
  const id = pathId();
  const [application, setApplication] = useState<Application | null>(null);
  const [documents, setDocuments] = useState<Document[] | null>(null);
  const [reviews, setReviews] = useState<ApplicationReviews | null>(null);
  const [reviewsRefused, setReviewsRefused] = useState<ApiError | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const load = () => {
    staffApi.application(id).then((a) => (a.ok ? setApplication(a.data) : setFailure(a)));
    staffApi.documents(id).then((a) => setDocuments(a.ok ? a.data.results : []));
    staffApi.reviews(id).then((a) => {
      setReviews(a.ok ? a.data : null);
      setReviewsRefused(a.ok ? null : a);
    });
  };
  useEffect(() => {
    if (session.status === "signed-in") load();
  }, [session.status]);
  const view: ApplicationView | null =
    application && session.status === "signed-in"
      ? {
          application,
          me: session.user,
          isAdmin: session.user.role === "admin",
          reviews,
          reviewsRefused,
          documents,
          reload: load,
          replace: setApplication,
        }
      : null;
  return (
    <StaffLayout session={session}>
      {failure && <StaffProblem problem={failure.problem} />}
      {!view && !failure && session.status === "signed-in" && (
        <p aria-busy="true">{t("common.loading")}</p>
      )}
      {view && APPLICATION_PANELS.map(({ key, Panel }) => <Panel key={key} view={view} />)}
    </StaffLayout>
  );
}
