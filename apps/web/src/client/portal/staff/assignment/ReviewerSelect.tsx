import { t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import type { Workload } from "../office/types.ts";

/** "Next in turn" (round-robin), or one reviewer, each with what is on their desk. */
export const ROUND_ROBIN = "";

export function ReviewerSelect({
  id,
  workload,
  value,
  onValue,
  barred = [],
}: {
  id: string;
  workload: Workload["results"];
  value: string;
  onValue: (reviewerId: string) => void;
  /** Reviewers who cannot take it (a declared conflict, already assigned): shown, not offered. */
  barred?: { id: string; why: string }[];
}) {
  return (
    <div class="field">
      <label for={id}>{t("office.assign.reviewer")}</label>
      <p class="hint" id={`${id}-hint`}>
        {t("office.assign.reviewerHint")}
      </p>
      <select
        id={id}
        value={value}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onValue(inputValue(e))}
        data-testid="assign-reviewer"
      >
        <option value={ROUND_ROBIN}>{t("office.assign.roundRobin")}</option>
        {workload.map(({ reviewer, open, reviewed }) => {
          const bar = barred.find((b) => b.id === reviewer.id);
          return (
            <option key={reviewer.id} value={reviewer.id} disabled={Boolean(bar)}>
              {bar
                ? t("office.assign.barred", { name: reviewer.fullName, why: bar.why })
                : t("office.assign.option", {
                    name: reviewer.fullName,
                    open,
                    toReview: open - reviewed,
                  })}
            </option>
          );
        })}
      </select>
    </div>
  );
}
