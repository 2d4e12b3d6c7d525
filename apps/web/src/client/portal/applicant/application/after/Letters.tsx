import { files } from "../../../api/admissions.ts";
import type { Application, Payment } from "../../../api/types.ts";
import { t } from "../../../i18n/use.ts";

/** Statuses that hold an offer, so the API issues its signed letter. */
const HAS_LETTER = new Set(["offered", "conditionally_offered", "accepted", "enrolled"]);

/** The signed offer letter and every receipt: each a signed PDF, and the receipt's print page. */
export function Letters({
  application,
  payments,
}: {
  application: Application;
  payments: Payment[];
}) {
  const receipts = payments.filter((p) => p.receiptNumber !== null);
  const letter = HAS_LETTER.has(application.status);
  return (
    <section aria-labelledby="letters-heading">
      <h2 id="letters-heading">{t("letters.heading")}</h2>
      {!letter && receipts.length === 0 ? (
        <p>{t("letters.none")}</p>
      ) : (
        <ul>
          {letter && (
            <li>
              <a href={files.offerLetter(application.id)} download>
                {t("letters.offer")}
              </a>
            </li>
          )}
          {receipts.map((p) => (
            <li key={p.id}>
              <a href={files.receipt(p.id)} download data-testid="receipt-pdf">
                {t("letters.receipt", { number: p.receiptNumber ?? "" })}
              </a>{" "}
              ·{" "}
              <a href={`/portal/receipts/${p.id}`} data-testid="receipt-link">
                {t("letters.receiptPage", { number: p.receiptNumber ?? "" })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
