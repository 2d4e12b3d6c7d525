import { useState } from "preact/hooks";
import type { Application } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";
import type { DecisionBody } from "../types.ts";

const DECISIONS = ["offer", "conditional_offer", "waitlist", "reject"] as const;

/**
 * An admin's decision (the seats are shown beside it, SeatCounts). The API is the judge: an offer with no seat left is refused (NO_SEATS_AVAILABLE),
 * and `version` makes a decision on a stale page a conflict rather than a surprise.
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
  const { busy, problem, send } = useSend<Application>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: DecisionBody = { decision, version: application.version };
    if (reason.trim()) body.reason = reason.trim();
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
      {problem && <ProblemNotice problem={problem} testId="decision-problem" />}
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
          <textarea
            id="decision-conditions"
            rows={3}
            value={conditions}
            onInput={(e) => setConditions(inputValue(e))}
            data-testid="decision-conditions"
          />
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
