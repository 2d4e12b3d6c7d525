import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { Application } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { applicationPath } from "../../routes.ts";
import { Field } from "../../ui/Field.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { FINAL } from "../application/after/AfterSubmission.tsx";
import { useApplication } from "../application/useApplication.ts";
import { SectionLayout } from "../sections/SectionLayout.tsx";

function WithdrawForm({ application }: { application: Application }) {
  const [reason, setReason] = useState("");
  const { busy, problem, done, send } = useSend<Application>();
  if (done) {
    return (
      <div role="status" class="panel" data-testid="withdrawn">
        <p>{t("withdraw.done")}</p>
        <p>
          <a href={applicationPath(application.id)}>{t("confirmation.toApplication")}</a>
        </p>
      </div>
    );
  }
  if (FINAL.has(application.status)) return <p>{t("withdraw.notPossible")}</p>;
  return (
    <form
      class="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send(() => admissions.withdraw(application.id, reason));
      }}
    >
      {problem && (
        <ProblemNotice
          problem={problem}
          fields={[{ name: "reason", id: "withdraw-reason", label: t("withdraw.reason") }]}
          testId="withdraw-problem"
        />
      )}
      <p>{t("withdraw.intro")}</p>
      <Field
        id="withdraw-reason"
        label={t("withdraw.reason")}
        hint={t("withdraw.reasonHint")}
        rows={3}
        maxLength={2000}
        value={reason}
        error={fieldError(problem, "reason")}
        onInput={(e) => setReason(inputValue(e))}
        data-testid="withdraw-reason"
      />
      <p class="actions">
        <button type="submit" class="danger" disabled={busy} data-testid="withdraw">
          {t("withdraw.confirm")}
        </button>{" "}
        <a href={applicationPath(application.id)}>{t("withdraw.keep")}</a>
      </p>
    </form>
  );
}

/** Withdrawing, on a page of its own: what it means, an optional reason, and a clear way back. */
export default function WithdrawPage() {
  const state = useApplication();
  return (
    <SectionLayout state={state} draftOnly={false}>
      {(application) => <WithdrawForm application={application} />}
    </SectionLayout>
  );
}
