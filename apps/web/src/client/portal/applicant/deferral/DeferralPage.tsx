import { useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { Application, Deferral } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDay, t } from "../../i18n/use.ts";
import { institution } from "../../ui/branding.ts";
import { Field } from "../../ui/Field.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { useApplication, useLoaded } from "../application/useApplication.ts";
import { SectionLayout } from "../sections/SectionLayout.tsx";

function DeferralForm({ application }: { application: Application }) {
  const id = application.id;
  const program = useLoaded(true, () => admissions.program(application.program.id));
  const requests = useLoaded(true, () => admissions.deferrals(id));
  const [to, setTo] = useState("");
  const [reason, setReason] = useState("");
  const { busy, problem, done, send } = useSend<Deferral>();
  const later = (program.data?.intakes ?? []).filter(
    (i) => Date.parse(i.deadline) > Date.parse(application.intake.deadline),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await send(() => admissions.requestDeferral(id, to, reason))) requests.reload();
  };
  const failure = program.failure ?? requests.failure;
  // One open request at a time (the API's rule): while one waits, there is nothing to send.
  const waiting = (requests.data?.results ?? []).some((d) => d.status === "requested");
  const canAsk = application.status === "accepted" && !done && !waiting;
  return (
    <>
      <p>{t("deferral.intro")}</p>
      {failure && <ProblemNotice problem={failure.problem} />}
      {done && (
        <p role="status" class="panel" data-testid="deferral-sent">
          {t("deferral.sent")}
        </p>
      )}
      {requests.data && requests.data.results.length > 0 && (
        <section aria-labelledby="requests-heading">
          <h2 id="requests-heading">{t("deferral.requests")}</h2>
          <ul data-testid="deferrals">
            {requests.data.results.map((d) => (
              <li key={d.id} data-testid="deferral" data-status={d.status}>
                {d.toIntake.term}: {t(`deferral.state.${d.status}` as MessageKey)}
                {d.decisionNote && <p>{t("condition.note", { note: d.decisionNote })}</p>}
              </li>
            ))}
          </ul>
        </section>
      )}
      {application.status !== "accepted" && <p>{t("deferral.notAccepted")}</p>}
      {canAsk && program.data && later.length === 0 && (
        <p>{t("deferral.noLater", { contact: institution.contact || t("common.office") })}</p>
      )}
      {canAsk && later.length > 0 && (
        <form class="form" noValidate onSubmit={submit}>
          {problem && (
            <ProblemNotice
              problem={problem}
              fields={[
                { name: "toIntakeId", id: `defer-${later[0]?.id ?? ""}`, label: t("deferral.to") },
                { name: "reason", id: "deferral-reason", label: t("deferral.reason") },
              ]}
              testId="deferral-problem"
            />
          )}
          <fieldset
            aria-describedby={fieldError(problem, "toIntakeId") ? "defer-error" : undefined}
          >
            <legend>{t("deferral.to")}</legend>
            {fieldError(problem, "toIntakeId") && (
              <p class="field-error" id="defer-error">
                {fieldError(problem, "toIntakeId")}
              </p>
            )}
            {later.map((intake) => (
              <div class="choice" key={intake.id}>
                <input
                  type="radio"
                  name="to-intake"
                  id={`defer-${intake.id}`}
                  value={intake.id}
                  checked={to === intake.id}
                  onChange={() => setTo(intake.id)}
                  data-testid="deferral-intake"
                />
                <label for={`defer-${intake.id}`}>
                  {t("deferral.option", { term: intake.term, date: formatDay(intake.opensAt) })}
                </label>
              </div>
            ))}
          </fieldset>
          <Field
            id="deferral-reason"
            label={t("deferral.reason")}
            rows={3}
            maxLength={2000}
            value={reason}
            error={fieldError(problem, "reason")}
            onInput={(e) => setReason(inputValue(e))}
            data-testid="deferral-reason"
          />
          <button type="submit" disabled={busy} data-testid="deferral-request">
            {t("deferral.send")}
          </button>
        </form>
      )}
    </>
  );
}

/** Asking to move an accepted place to a later intake; the requests made and their answers. */
export default function DeferralPage() {
  const state = useApplication();
  return (
    <SectionLayout state={state} draftOnly={false}>
      {(application) => <DeferralForm application={application} />}
    </SectionLayout>
  );
}
