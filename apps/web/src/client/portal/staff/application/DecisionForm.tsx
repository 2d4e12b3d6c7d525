import type { Reason } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import { call } from "../../api/client.ts";
import type { Application } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";
import type { DecisionBody } from "../types.ts";
import { FieldError, type FieldRule, FormProblem, fieldErrors } from "../ui/FormProblem.tsx";

const DECISIONS = ["offer", "conditional_offer", "waitlist", "reject"] as const;

/**
 * An admin's decision (the seats are shown beside it, SeatCounts). The API is the judge: an offer with no seat left is refused (NO_SEATS_AVAILABLE),
 * and `version` makes a decision on a stale page a conflict rather than a surprise. A
 * rejection may name one of the office's reason codes (GET /reasons/?kind=rejection), counted
 * by the statistics; every refusal is said in words.
 */
export function DecisionForm({
  application,
  onDecided,
  onTried,
}: {
  application: Application;
  onDecided: (next: Application) => void;
  /** After every attempt, refused or not: the seats are read again. */
  onTried: () => void;
}) {
  const [decision, setDecision] = useState<DecisionBody["decision"]>("offer");
  const [conditions, setConditions] = useState("");
  const [reason, setReason] = useState("");
  const [reasonCode, setReasonCode] = useState("");
  const [codes, setCodes] = useState<Reason[]>([]);
  const { busy, problem, send } = useSend<Application>();
  useEffect(() => {
    call<{ results: Reason[] }>("GET", "/reasons/?kind=rejection").then(
      (a) => a.ok && setCodes(a.data.results),
    );
  }, []);
  const rules: FieldRule[] = [
    {
      path: "/body/conditions",
      id: "decision-conditions",
      message: t("decide.decision.conditionsError"),
    },
    {
      path: "/body/reasonCode",
      id: "decision-reason-code",
      message: t("decide.decision.reasonCodeError"),
    },
    { path: "/body/reason", id: "decision-reason", message: t("decide.decision.reasonError") },
  ];
  const errors = fieldErrors(problem, rules);
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: DecisionBody = { decision, version: application.version };
    if (reason.trim()) body.reason = reason.trim();
    if (decision === "reject" && reasonCode) body.reasonCode = reasonCode;
    if (decision === "conditional_offer")
      body.conditions = conditions
        .split("\n")
        .map((c) => c.trim())
        .filter(Boolean);
    const result = await send(() => staffApi.decide(application.id, body));
    onTried();
    if (result) onDecided(result.data);
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="decision">
      <FormProblem problem={problem} rules={rules} testId="decision-problem" />
      <fieldset>
        <legend>{t("staff.decision.choose")}</legend>
        {DECISIONS.map((d) => (
          <label key={d} class="choice">
            <input
              type="radio"
              name="decision"
              value={d}
              checked={decision === d}
              onChange={() => setDecision(d)}
              data-testid={`decision-${d}`}
            />{" "}
            {t(`staff.decision.${d}` as MessageKey)}
          </label>
        ))}
      </fieldset>
      {decision === "conditional_offer" && (
        <div class="field">
          <label for="decision-conditions">{t("staff.decision.conditions")}</label>
          <FieldError id="decision-conditions" errors={errors} />
          <textarea
            id="decision-conditions"
            rows={3}
            value={conditions}
            aria-invalid={errors.has("decision-conditions") ? true : undefined}
            aria-describedby={
              errors.has("decision-conditions") ? "decision-conditions-error" : undefined
            }
            onInput={(e) => setConditions(inputValue(e))}
            data-testid="decision-conditions"
          />
        </div>
      )}
      {decision === "reject" && codes.length > 0 && (
        <div class="field">
          <label for="decision-reason-code">{t("decide.decision.reasonCode")}</label>
          <select
            id="decision-reason-code"
            value={reasonCode}
            onChange={(e) => setReasonCode(inputValue(e))}
            data-testid="decision-reason-code"
          >
            <option value="">{t("decide.decision.noReasonCode")}</option>
            {codes.map((code) => (
              <option key={code.code} value={code.code}>
                {code.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div class="field">
        <label for="decision-reason">{t("staff.decision.reason")}</label>
        <textarea
          id="decision-reason"
          rows={3}
          maxLength={2_000}
          value={reason}
          onInput={(e) => setReason(inputValue(e))}
          data-testid="decision-reason"
        />
      </div>
      <button type="submit" disabled={busy} data-testid="decide">
        {t("staff.decision.submit")}
      </button>
    </form>
  );
}
