import type { Problem } from "@platform/contracts/problem";
import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { useSend } from "../../ui/useForm.ts";
import { ReviewerSelect, ROUND_ROBIN } from "../assignment/ReviewerSelect.tsx";
import { officeApi } from "../office/api.ts";
import type { BulkAssigned } from "../office/types.ts";
import { OfficeProblem, officeProblemText } from "../office/ui/OfficeProblem.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import type { Refusal } from "../types.ts";
import type { StaffSession } from "../ui/session.ts";

/**
 * One reviewer (or the next in turn for each) for every application ticked. All or none: when
 * the API refuses any, nothing is assigned and each refusal is listed, in words.
 */
export function BulkAssign({
  session,
  selected,
  names,
  onAssigned,
}: {
  session: StaffSession;
  selected: string[];
  /** Applicant names by application id, to say which one was refused. */
  names: Record<string, string>;
  onAssigned: () => void;
}) {
  const [reviewer, setReviewer] = useState(ROUND_ROBIN);
  const workload = useLoad(session, () => officeApi.workload());
  const { busy, problem, done, send } = useSend<BulkAssigned>();
  const refusals = (problem as (Problem & { refusals?: Refusal[] }) | null)?.refusals ?? [];
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await send(() => officeApi.bulkAssign(selected, reviewer || undefined))) onAssigned();
  };
  return (
    <form class="form bulk" onSubmit={submit} noValidate data-testid="bulk-assign">
      <h3>{t("office.bulkAssign.title")}</h3>
      <p>{t("staff.bulk.selected", { count: selected.length })}</p>
      {workload.data && (
        <ReviewerSelect
          id="bulk-reviewer"
          workload={workload.data.results}
          value={reviewer}
          onValue={setReviewer}
        />
      )}
      <button type="submit" disabled={busy || selected.length === 0} data-testid="assign-save">
        {t("office.bulkAssign.submit")}
      </button>
      {problem && <OfficeProblem problem={problem} testId="bulk-assign-problem" />}
      {refusals.length > 0 && (
        <ul data-testid="bulk-assign-refusals">
          {refusals.map((r) => (
            <li key={r.applicationId}>
              {names[r.applicationId] ?? r.applicationId}:{" "}
              {officeProblemText({ ...r, type: "", title: "", requestId: "" })}
            </li>
          ))}
        </ul>
      )}
      {done && (
        <p role="status" data-testid="bulk-assign-done">
          {t("office.bulkAssign.done", { count: done.data.assigned })}
        </p>
      )}
    </form>
  );
}
