import type { Problem } from "@platform/contracts/problem";
import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";
import type { BulkResult, Refusal } from "../types.ts";

/** The moves offered in bulk from the queue (offers are decided one at a time, seats in view). */
const TARGETS = ["under_review", "waitlisted", "rejected"] as const;

/**
 * One move for every application ticked in the queue. All or none: when the API refuses any
 * (409 BULK_REFUSED), nothing moved, and each refusal is listed with its reason.
 */
export function BulkActions({ selected, onMoved }: { selected: string[]; onMoved: () => void }) {
  const [to, setTo] = useState<(typeof TARGETS)[number]>("under_review");
  const [reason, setReason] = useState("");
  const { busy, problem, done, send } = useSend<BulkResult>();
  const refusals = (problem as (Problem & { refusals?: Refusal[] }) | null)?.refusals ?? [];
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      applicationIds: selected,
      to,
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    };
    if (await send(() => staffApi.bulk(body))) onMoved();
  };
  return (
    <form class="form bulk" onSubmit={submit} noValidate data-testid="bulk-actions">
      <p>{t("staff.bulk.selected", { count: selected.length })}</p>
      <div class="field">
        <label for="bulk-to">{t("staff.bulk.to")}</label>
        <select
          id="bulk-to"
          value={to}
          onChange={(e) => setTo(inputValue(e) as (typeof TARGETS)[number])}
        >
          {TARGETS.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}` as MessageKey)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="bulk-reason">{t("staff.decision.reason")}</label>
        <input id="bulk-reason" value={reason} onInput={(e) => setReason(inputValue(e))} />
      </div>
      <button type="submit" disabled={busy || selected.length === 0} data-testid="bulk-submit">
        {t("staff.bulk.submit")}
      </button>
      {problem && <ProblemNotice problem={problem} testId="bulk-problem" />}
      {refusals.length > 0 && (
        <ul data-testid="bulk-refusals">
          {refusals.map((r) => (
            <li key={r.applicationId}>
              {r.applicationId}: {r.detail}
            </li>
          ))}
        </ul>
      )}
      {done && (
        <p role="status" data-testid="bulk-done">
          {t("staff.bulk.done", { count: done.data.moved })}
        </p>
      )}
    </form>
  );
}
