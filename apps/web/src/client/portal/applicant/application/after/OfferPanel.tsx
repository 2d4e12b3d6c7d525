import { useState } from "preact/hooks";
import { admissions, files } from "../../../api/admissions.ts";
import type { Application } from "../../../api/types.ts";
import { formatDate, t } from "../../../i18n/use.ts";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { useSend } from "../../../ui/useForm.ts";

/**
 * An offer (or a conditional one) to answer before its deadline, its signed letter beside it;
 * declining asks once more.
 */
export function OfferPanel({
  application,
  onAnswered,
}: {
  application: Application;
  onAnswered: (a: Application) => void;
}) {
  const { busy, problem, send } = useSend<Application>();
  const [confirmDecline, setConfirmDecline] = useState(false);
  const offer = application.offer;
  if (!offer) return null;
  const answer = async (run: () => ReturnType<typeof admissions.accept>) => {
    const done = await send(run);
    if (done) onAnswered(done.data);
  };
  return (
    <section class="panel offer" aria-labelledby="offer-heading" data-testid="offer">
      <h2 id="offer-heading">{t("offer.heading")}</h2>
      <p>{t("offer.respondBy", { when: formatDate(offer.respondBy) })}</p>
      {offer.conditions.length > 0 && (
        <>
          <p>{t("offer.conditions")}</p>
          <ul data-testid="offer-conditions">
            {offer.conditions.map((condition) => (
              <li key={condition}>{condition}</li>
            ))}
          </ul>
        </>
      )}
      <p>
        <a href={files.offerLetter(application.id)} download data-testid="offer-letter">
          {t("offer.letter")}
        </a>
      </p>
      {problem && <ProblemNotice problem={problem} testId="offer-problem" />}
      <p class="actions">
        <button
          type="button"
          disabled={busy}
          onClick={() => answer(() => admissions.accept(application.id))}
          data-testid="accept-offer"
        >
          {t("offer.accept")}
        </button>{" "}
        {confirmDecline ? (
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => answer(() => admissions.decline(application.id))}
            data-testid="decline-offer-confirm"
          >
            {t("offer.declineConfirm")}
          </button>
        ) : (
          <button
            type="button"
            class="secondary"
            onClick={() => setConfirmDecline(true)}
            data-testid="decline-offer"
          >
            {t("offer.decline")}
          </button>
        )}
      </p>
    </section>
  );
}
