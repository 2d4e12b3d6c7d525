import type { ConditionList } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import { formatDate, t } from "../../../i18n/use.ts";
import type { ApplicationView } from "../view.ts";
import { offerApi } from "./api.ts";
import { ConditionRow } from "./ConditionRow.tsx";
import { Deferrals } from "./Deferrals.tsx";
import { OfferLetter } from "./OfferLetter.tsx";

/** Conditions are settled while a conditional offer stands or is accepted (docs/admissions/offers.md). */
const CONDITIONS_OPEN = new Set(["conditionally_offered", "accepted"]);

/** The offer waits for the applicant's answer: its deadline still means something. */
const AWAITING_ANSWER = new Set(["offered", "conditionally_offered"]);

/**
 * The offer made: its deadline while unanswered, its conditions each settled with its evidence, the signed
 * letter, and the requests to defer the place.
 */
export function OfferPanel({ view }: { view: ApplicationView }) {
  const { application } = view;
  const [conditions, setConditions] = useState<ConditionList | null>(null);
  useEffect(() => {
    if (!application.offer) return;
    let current = true; // an earlier read can answer last
    offerApi.conditions(application.id).then((a) => {
      if (current && a.ok) setConditions(a.data);
    });
    return () => {
      current = false;
    };
  }, [application.id, application.version]);
  if (!application.offer) return null;
  const open =
    view.isAdmin && CONDITIONS_OPEN.has(application.status) && !conditions?.unconditionalAt;
  return (
    <section class="panel" aria-labelledby="staff-offer" data-testid="offer-panel">
      <h2 id="staff-offer">{t("decide.offer.title")}</h2>
      {AWAITING_ANSWER.has(application.status) && (
        <p data-testid="offer-respond-by">
          {t("decide.offer.respondBy", { date: formatDate(application.offer.respondBy) })}
        </p>
      )}
      {conditions?.unconditionalAt && (
        <p class="success" data-testid="offer-unconditional">
          {t("decide.offer.unconditional", { date: formatDate(conditions.unconditionalAt) })}
        </p>
      )}
      {conditions && conditions.conditions.length > 0 && (
        <>
          <h3>{t("decide.conditions.title")}</h3>
          <ul class="condition-list" data-testid="conditions">
            {conditions.conditions.map((c) => (
              <ConditionRow
                key={`${c.id}-${c.status}`}
                applicationId={application.id}
                condition={c}
                documents={view.documents ?? []}
                open={open}
                onSettled={(next) => {
                  setConditions(next);
                  view.reload();
                }}
              />
            ))}
          </ul>
        </>
      )}
      <OfferLetter application={application} />
      <Deferrals application={application} isAdmin={view.isAdmin} onDecided={view.reload} />
    </section>
  );
}
