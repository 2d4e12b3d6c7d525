import { account } from "../../api/account.ts";
import { admissions } from "../../api/admissions.ts";
import type { Application } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { applicationPath } from "../../routes.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";
import { SECTIONS, taskStates } from "../application/tasks.ts";
import { useApplication, useLoaded } from "../application/useApplication.ts";
import { SectionLayout } from "../sections/SectionLayout.tsx";
import { answerRows } from "./answers.ts";
import { SummaryList } from "./SummaryList.tsx";

/** Where each refusal of the submission is put right. */
const FIX: Record<string, { href: (id: string) => string; key: MessageKey }> = {
  REQUIRED_DOCUMENTS_MISSING: {
    href: (id) => applicationPath(id, "documents"),
    key: "section.documents",
  },
  APPLICATION_FEE_UNPAID: { href: (id) => applicationPath(id, "fee"), key: "section.fee" },
  EMAIL_NOT_VERIFIED: { href: () => "/portal/account", key: "nav.account" },
};

function CheckAnswers({ application }: { application: Application }) {
  const id = application.id;
  const profile = useLoaded(true, account.profile);
  const checklist = useLoaded(true, () => admissions.checklist(id));
  const documents = useLoaded(true, () => admissions.documents(id));
  const fee = useLoaded(true, () => admissions.fee(id));
  const referees = useLoaded(true, () => admissions.referees(id));
  const sending = useSend<Application>();
  const failure =
    profile.failure ?? checklist.failure ?? documents.failure ?? fee.failure ?? referees.failure;
  if (failure) return <ProblemNotice problem={failure.problem} />;
  if (!profile.data || !checklist.data || !documents.data || !fee.data || !referees.data) {
    return <p aria-busy="true">{t("common.loading")}</p>;
  }
  const answers = {
    application,
    profile: profile.data,
    checklist: checklist.data,
    documents: documents.data.results,
    fee: fee.data,
    referees: referees.data,
  };
  const rows = answerRows(answers);
  const states = taskStates(answers);
  const todo = SECTIONS.filter((s) => states[s] !== "completed");
  const send = async () => {
    const sent = await sending.send(() => admissions.submit(id));
    if (sent) location.assign(applicationPath(id, "submitted"));
  };
  const fix = sending.problem ? FIX[sending.problem.code] : undefined;
  return (
    <div data-testid="check-answers">
      {sending.problem && <ProblemNotice problem={sending.problem} testId="submit-problem" />}
      {fix && (
        <p>
          <a href={fix.href(id)} data-testid="submit-fix">
            {t(fix.key)}
          </a>
        </p>
      )}
      {todo.length > 0 && (
        <p class="notice" data-testid="check-incomplete">
          {t("check.incomplete", {
            sections: todo.map((s) => t(`section.${s}` as MessageKey)).join(", "),
          })}
        </p>
      )}
      {SECTIONS.map((section) => (
        <section key={section} aria-labelledby={`check-${section}`}>
          <h2 id={`check-${section}`}>{t(`section.${section}` as MessageKey)}</h2>
          <SummaryList rows={rows[section]} />
        </section>
      ))}
      <section aria-labelledby="send-heading">
        <h2 id="send-heading">{t("check.sendHeading")}</h2>
        <p>{t("check.declaration")}</p>
        <button
          type="button"
          disabled={sending.busy}
          onClick={send}
          data-testid="submit-application"
        >
          {t("check.send")}
        </button>
      </section>
    </div>
  );
}

/** "Check your answers": every section's answers with change links, then the declaration and send. */
export default function CheckAnswersPage() {
  const state = useApplication();
  return (
    <SectionLayout state={state}>
      {(application) => <CheckAnswers application={application} />}
    </SectionLayout>
  );
}
