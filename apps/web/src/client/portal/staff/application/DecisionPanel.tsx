import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { DecisionForm } from "./DecisionForm.tsx";
import { SeatCounts } from "./SeatCounts.tsx";
import type { ApplicationView } from "./view.ts";

/** Decisions are made on applications under review or interviewing (the lifecycle table). */
const DECIDABLE = new Set(["under_review", "interviewing"]);

/** An admin's decision beside the intake's live seats, and the way to its waiting list. */
export function DecisionPanel({ view }: { view: ApplicationView }) {
  const [attempts, setAttempts] = useState(0);
  const [decided, setDecided] = useState(false);
  const { application } = view;
  if (!view.isAdmin) return null;
  return (
    <section class="panel" aria-labelledby="staff-decision">
      <h2 id="staff-decision">{t("staff.decision.title")}</h2>
      {decided && (
        <p role="status" data-testid="decided">
          {t("staff.decision.done", {
            status: t(`status.${application.status}` as MessageKey),
          })}
        </p>
      )}
      <SeatCounts intakeId={application.intake.id} refresh={attempts} />
      <p>
        <a href={`/portal/staff/intakes/${application.intake.id}/waitlist`}>
          {t("staff.waitlist.link", { term: application.intake.term })}
        </a>
      </p>
      {DECIDABLE.has(application.status) ? (
        <DecisionForm
          application={application}
          onDecided={(next) => {
            view.replace(next);
            setDecided(true);
          }}
          onTried={() => setAttempts((n) => n + 1)}
        />
      ) : (
        <p data-testid="decision-closed">{t("staff.decision.closed")}</p>
      )}
    </section>
  );
}
