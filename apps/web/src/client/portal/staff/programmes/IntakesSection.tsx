import { useState } from "preact/hooks";
import { formatDate, t } from "../../i18n/use.ts";
import { useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { Intake } from "../office/types.ts";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { IntakeForm } from "./IntakeForm.tsx";

/**
 * A programme's intakes: each with its window and seats, opened or closed by its dates (the
 * API's `isOpen`: opens ≤ now < deadline). "Close now" moves the deadline to now; "Open now"
 * moves the opening to now (and a passed deadline a month on), so nothing else changes.
 */
export function IntakesSection({
  programmeId,
  intakes,
  onChanged,
}: {
  programmeId: string;
  intakes: Intake[];
  onChanged: (message: string) => void;
}) {
  const [editing, setEditing] = useState<Intake | "new" | null>(null);
  const change = useSend<Intake>();
  const openOrClose = async (intake: Intake) => {
    const now = new Date();
    const month = new Date(now.getTime() + 30 * 86_400_000).toISOString();
    const body = intake.isOpen
      ? { deadline: now.toISOString() }
      : {
          opensAt: now.toISOString(),
          ...(Date.parse(intake.deadline) <= now.getTime() ? { deadline: month } : {}),
        };
    const done = await change.send(() => officeApi.updateIntake(intake.id, body));
    if (done)
      onChanged(
        t(intake.isOpen ? "office.intake.closedNow" : "office.intake.openedNow", {
          term: intake.term,
        }),
      );
  };
  return (
    <section aria-labelledby="intakes-title">
      <h2 id="intakes-title">{t("office.intakes.title")}</h2>
      {change.problem && <OfficeProblem problem={change.problem} />}
      {intakes.length === 0 ? (
        <p data-testid="empty">{t("office.intakes.none")}</p>
      ) : (
        <div class="table-scroll">
          <table data-testid="intakes">
            <caption class="visually-hidden">{t("office.intakes.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("office.intake.term")}</th>
                <th scope="col">{t("office.intake.opensAt")}</th>
                <th scope="col">{t("office.intake.deadline")}</th>
                <th scope="col">{t("office.intake.capacity")}</th>
                <th scope="col">{t("office.programmes.stateColumn")}</th>
                <th scope="col">{t("office.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {intakes.map((intake) => (
                <tr key={intake.id} data-testid="intake" data-open={intake.isOpen}>
                  <th scope="row">{intake.term}</th>
                  <td>{formatDate(intake.opensAt)}</td>
                  <td>{formatDate(intake.deadline)}</td>
                  <td>{intake.capacity}</td>
                  <td>{t(intake.isOpen ? "office.intake.open" : "office.intake.closed")}</td>
                  <td class="row-actions">
                    <button type="button" class="secondary" onClick={() => setEditing(intake)}>
                      {t("office.edit")}
                      <span class="visually-hidden"> {intake.term}</span>
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      disabled={change.busy}
                      onClick={() => openOrClose(intake)}
                      data-testid="intake-toggle"
                    >
                      {t(intake.isOpen ? "office.intake.closeNow" : "office.intake.openNow")}
                      <span class="visually-hidden"> {intake.term}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing === null ? (
        <button type="button" onClick={() => setEditing("new")} data-testid="intake-new">
          {t("office.intake.new")}
        </button>
      ) : (
        <IntakeForm
          key={editing === "new" ? "new" : editing.id}
          programmeId={programmeId}
          intake={editing === "new" ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            onChanged(t("office.intake.saved", { term: saved.term }));
          }}
        />
      )}
    </section>
  );
}
