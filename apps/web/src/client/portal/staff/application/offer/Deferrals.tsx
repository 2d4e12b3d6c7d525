import type { Application, Deferral } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDate, t } from "../../../i18n/use.ts";
import { inputValue, useSend } from "../../../ui/useForm.ts";
import { StaffProblem } from "../../ui/StaffProblem.tsx";
import { SeatCounts } from "../SeatCounts.tsx";
import { offerApi } from "./api.ts";

/**
 * The applicant's requests to start in a later intake. One waiting for a decision shows the
 * seats of both intakes (approval takes a seat in the later one: 409 NO_SEATS_AVAILABLE when
 * it has none, and frees one here), with a note to the applicant and approve or refuse.
 */
export function Deferrals({
  application,
  isAdmin,
  onDecided,
}: {
  application: Application;
  isAdmin: boolean;
  onDecided: () => void;
}) {
  const [deferrals, setDeferrals] = useState<Deferral[] | null>(null);
  const [note, setNote] = useState("");
  const [tries, setTries] = useState(0);
  const { busy, problem, done, send } = useSend<Deferral>();
  useEffect(() => {
    let current = true; // an earlier read can answer last
    offerApi.deferrals(application.id).then((a) => {
      if (current) setDeferrals(a.ok ? a.data.results : []);
    });
    return () => {
      current = false;
    };
  }, [application.id, application.version, tries]);
  if (!deferrals || (deferrals.length === 0 && application.status !== "accepted")) return null;
  const decide = async (deferral: Deferral, decision: "approve" | "refuse") => {
    const decided = await send(() =>
      offerApi.decideDeferral(application.id, deferral.id, decision, note.trim()),
    );
    setTries((n) => n + 1);
    if (decided) {
      setNote("");
      onDecided();
    }
  };
  return (
    <div id="deferrals" class="deferrals" data-testid="deferrals">
      <h3>{t("decide.deferrals.title")}</h3>
      {done && (
        <p class="success" role="status" data-testid="deferral-decided">
          {t(`decide.deferrals.done.${done.data.status}` as MessageKey, {
            term: done.data.toIntake.term,
          })}
        </p>
      )}
      {deferrals.length === 0 && <p>{t("decide.deferrals.none")}</p>}
      <ul class="deferral-list">
        {deferrals.map((d) => (
          <li key={d.id} class="panel" data-testid="deferral" data-status={d.status}>
            <p>
              <strong>
                {t("decide.deferrals.move", { from: d.fromIntake.term, to: d.toIntake.term })}
              </strong>{" "}
              · {t(`decide.deferrals.status.${d.status}` as MessageKey)}
            </p>
            <p class="muted">
              {t("decide.deferrals.requested", { date: formatDate(d.requestedAt) })}
            </p>
            {d.reason && <p class="statement">{d.reason}</p>}
            {d.decisionNote && (
              <p>
                {t("decide.deferrals.note")}: <span class="statement">{d.decisionNote}</span>
              </p>
            )}
            {isAdmin && d.status === "requested" && (
              <>
                <div class="seat-pair">
                  {[d.toIntake, d.fromIntake].map((intake) => (
                    <div key={intake.id}>
                      <h4>{t("decide.deferrals.seats", { term: intake.term })}</h4>
                      <SeatCounts
                        intakeId={intake.id}
                        refresh={tries}
                        label={t("decide.deferrals.seats", { term: intake.term })}
                        testId={
                          intake.id === d.toIntake.id ? "deferral-seats-to" : "deferral-seats-from"
                        }
                      />
                    </div>
                  ))}
                </div>
                {problem && <StaffProblem problem={problem} testId="deferral-problem" />}
                <div class="field">
                  <label for={`deferral-note-${d.id}`}>{t("decide.deferrals.noteLabel")}</label>
                  <textarea
                    id={`deferral-note-${d.id}`}
                    rows={2}
                    maxLength={2_000}
                    value={note}
                    onInput={(e) => setNote(inputValue(e))}
                  />
                </div>
                <div class="actions">
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => decide(d, "approve")}
                    data-testid="deferral-approve"
                  >
                    {t("decide.deferrals.approve", { term: d.toIntake.term })}
                  </button>
                  <button
                    type="button"
                    class="secondary"
                    disabled={busy}
                    onClick={() => decide(d, "refuse")}
                    data-testid="deferral-refuse"
                  >
                    {t("decide.deferrals.refuse")}
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
