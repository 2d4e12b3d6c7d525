import { admissions } from "../../../api/admissions.ts";
import type { Application } from "../../../api/types.ts";
import { formatDate, t } from "../../../i18n/use.ts";
import { applicationPath } from "../../../routes.ts";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { RefereesPanel } from "../../sections/referees/RefereesPanel.tsx";
import { liveInterview, nextStep } from "../next-step.ts";
import { useLoaded } from "../useApplication.ts";
import { ConditionsPanel } from "./ConditionsPanel.tsx";
import { InterviewPanel } from "./InterviewPanel.tsx";
import { Letters } from "./Letters.tsx";
import { OfferPanel } from "./OfferPanel.tsx";
import { Timeline } from "./Timeline.tsx";

/** Statuses with no move left (the lifecycle's finals): nothing to withdraw. */
export const FINAL = new Set([
  "rejected",
  "declined",
  "offer_expired",
  "enrolled",
  "conditions_not_met",
  "withdrawn",
]);
const HAS_CONDITIONS = new Set([
  "conditionally_offered",
  "accepted",
  "enrolled",
  "conditions_not_met",
]);

/**
 * A sent application: what happens next, the offer to answer, the interview, the conditions
 * and their evidence, the letters and receipts, the history in words, and what the applicant
 * may still do (withdraw; ask to defer an accepted place).
 */
export function AfterSubmission({
  application,
  onChange,
}: {
  application: Application;
  onChange: (a: Application) => void;
}) {
  const id = application.id;
  const version = application.version;
  const interviews = useLoaded(true, () => admissions.interviews(id), version);
  const conditions = useLoaded(
    HAS_CONDITIONS.has(application.status),
    () => admissions.conditions(id),
    version,
  );
  const payments = useLoaded(true, () => admissions.payments(id), version);
  const documents = useLoaded(true, () => admissions.documents(id), version);
  const history = useLoaded(true, () => admissions.history(id), version);
  const interview = liveInterview(interviews.data?.results ?? []);
  const step = nextStep(application, interview, conditions.data?.conditions ?? []);
  // The next step depends on the interview and the conditions too: said once they are read
  // (or could not be), never a step they would change.
  const read = (loaded: { data: unknown; failure: unknown }) =>
    loaded.data !== null || loaded.failure !== null;
  const stepKnown =
    read(interviews) && (!HAS_CONDITIONS.has(application.status) || read(conditions));
  const failure = interviews.failure ?? payments.failure ?? history.failure ?? documents.failure;
  const offered =
    application.status === "offered" || application.status === "conditionally_offered";
  return (
    <>
      {application.submittedAt && (
        <p>{t("after.sentOn", { when: formatDate(application.submittedAt) })}</p>
      )}
      <section class="panel" aria-labelledby="next-heading">
        <h2 id="next-heading">{t("after.whatNext")}</h2>
        {stepKnown ? (
          <p data-testid="next-step">{step.text}</p>
        ) : (
          <p aria-busy="true">{t("common.loading")}</p>
        )}
      </section>
      {failure && <ProblemNotice problem={failure.problem} />}
      {offered && <OfferPanel application={application} onAnswered={onChange} />}
      {interview && <InterviewPanel interview={interview} onChange={() => interviews.reload()} />}
      {conditions.data && conditions.data.conditions.length > 0 && (
        <ConditionsPanel
          list={conditions.data}
          documents={documents.data?.results ?? []}
          onChange={() => {
            conditions.reload();
            documents.reload();
          }}
        />
      )}
      {payments.data && <Letters application={application} payments={payments.data.results} />}
      <section aria-labelledby="referees-heading">
        <h2 id="referees-heading">{t("referees.heading")}</h2>
        <RefereesPanel applicationId={id} editable={application.status === "submitted"} />
      </section>
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">{t("timeline.heading")}</h2>
        {history.data && <Timeline history={history.data.results} />}
      </section>
      {!FINAL.has(application.status) && (
        <section aria-labelledby="actions-heading">
          <h2 id="actions-heading">{t("actions.heading")}</h2>
          <ul>
            {application.status === "accepted" && (
              <li>
                <a href={applicationPath(id, "deferral")} data-testid="deferral-link">
                  {t("actions.defer")}
                </a>
              </li>
            )}
            <li>
              <a href={applicationPath(id, "withdraw")} data-testid="withdraw-link">
                {t("actions.withdraw")}
              </a>
            </li>
          </ul>
        </section>
      )}
    </>
  );
}
