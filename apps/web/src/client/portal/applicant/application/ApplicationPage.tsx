import { useEffect, useRef, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type {
  Application,
  Checklist,
  Document,
  FeeSummary,
  Payment,
  Transition,
} from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { pathId } from "../../routes.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { useSend } from "../../ui/useForm.ts";
import { DetailsStep } from "./DetailsStep.tsx";
import { DocumentsStep } from "./DocumentsStep.tsx";
import { OfferPanel } from "./OfferPanel.tsx";
import { PaymentStep } from "./PaymentStep.tsx";
import { RefereesPanel } from "./RefereesPanel.tsx";
import { Timeline } from "./Timeline.tsx";

type Extras = {
  checklist: Checklist;
  documents: Document[];
  fee: FeeSummary;
  payments: Payment[];
  history: Transition[];
};

async function loadExtras(id: string): Promise<Extras | null> {
  const [checklist, documents, fee, payments, history] = await Promise.all([
    admissions.checklist(id),
    admissions.documents(id),
    admissions.fee(id),
    admissions.payments(id),
    admissions.history(id),
  ]);
  if (!checklist.ok || !documents.ok || !fee.ok || !payments.ok || !history.ok) return null;
  return {
    checklist: checklist.data,
    documents: documents.data.results,
    fee: fee.data,
    payments: payments.data.results,
    history: history.data.results,
  };
}

/**
 * One application: a draft is a four-step wizard (details saved as typed, documents, fee,
 * submit), each step saying whether it is done; afterwards its status, the offer to answer, the
 * documents, payments with receipts, and the timeline.
 */
export default function ApplicationPage() {
  const session = useSession(true);
  const id = pathId();
  const [application, setApplication] = useState<Application | null>(null);
  const [extras, setExtras] = useState<Extras | null>(null);
  const [missing, setMissing] = useState(false);
  const flush = useRef<() => Promise<boolean>>(async () => true);
  const submitting = useSend<Application>();

  const refresh = async () => setExtras(await loadExtras(id));
  useEffect(() => {
    if (session.status !== "signed-in") return;
    admissions.application(id).then((answer) => {
      if (answer.ok) setApplication(answer.data);
      else setMissing(true);
    });
    refresh();
  }, [session.status]);

  const submit = async () => {
    if (!(await flush.current())) return;
    const done = await submitting.send(() => admissions.submit(id));
    if (done) {
      setApplication(done.data);
      refresh();
    }
  };

  const draft = application?.status === "draft";
  const step = (n: number, key: MessageKey, done: boolean) => (
    <h2 id={`step-${n}`}>
      {t("wizard.step", { n })} {t(key)}{" "}
      <span class={`badge ${done ? "doc-verified" : "doc-missing"}`}>
        {done ? t("wizard.done") : t("wizard.todo")}
      </span>
    </h2>
  );
  return (
    <Layout session={session}>
      {missing && <p role="alert">{t("application.notFound")}</p>}
      {application && (
        <>
          <h2 class="application-title">
            {application.program.name} · {application.intake.term}
          </h2>
          <p>
            {t("application.status")}{" "}
            <span
              class={`badge status-${application.status}`}
              data-testid="application-status"
              data-status={application.status}
            >
              {t(`status.${application.status}` as MessageKey)}
            </span>
          </p>
          {(application.status === "offered" || application.status === "conditionally_offered") && (
            <OfferPanel
              application={application}
              onAnswered={(a) => {
                setApplication(a);
                refresh();
              }}
            />
          )}
          {draft && (
            <section aria-labelledby="step-1">
              {step(1, "wizard.details", application.personalStatement.trim() !== "")}
              <DetailsStep
                application={application}
                onSaved={setApplication}
                registerFlush={(f) => {
                  flush.current = f;
                }}
              />
            </section>
          )}
          {extras && (
            <>
              <section aria-labelledby="step-2">
                {draft ? (
                  step(2, "wizard.documents", extras.checklist.complete)
                ) : (
                  <h2 id="step-2">{t("wizard.documents")}</h2>
                )}
                <DocumentsStep
                  applicationId={id}
                  checklist={extras.checklist}
                  documents={extras.documents}
                  editable={draft}
                  onUploaded={refresh}
                />
              </section>
              <section aria-labelledby="step-3">
                {draft ? (
                  step(3, "wizard.fee", extras.fee.status !== "unpaid")
                ) : (
                  <h2 id="step-3">{t("wizard.fee")}</h2>
                )}
                <PaymentStep
                  applicationId={id}
                  fee={extras.fee}
                  payments={extras.payments}
                  editable={draft}
                  onChange={refresh}
                />
              </section>
              {draft && (
                <section aria-labelledby="step-4">
                  {step(4, "wizard.submit", false)}
                  <p>{t("wizard.submitHint")}</p>
                  {submitting.problem && (
                    <ProblemNotice problem={submitting.problem} testId="submit-problem" />
                  )}
                  <button
                    type="button"
                    disabled={submitting.busy}
                    onClick={submit}
                    data-testid="submit-application"
                  >
                    {t("wizard.submitButton")}
                  </button>
                </section>
              )}
              <section aria-labelledby="referees-heading">
                <h2 id="referees-heading">{t("referees.heading")}</h2>
                <RefereesPanel
                  applicationId={id}
                  editable={draft || application.status === "submitted"}
                />
              </section>
              <section aria-labelledby="timeline-heading">
                <h2 id="timeline-heading">{t("application.timeline")}</h2>
                <Timeline history={extras.history} />
              </section>
            </>
          )}
        </>
      )}
    </Layout>
  );
}
