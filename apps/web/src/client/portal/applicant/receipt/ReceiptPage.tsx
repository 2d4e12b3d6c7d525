import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { ApiError } from "../../api/client.ts";
import type { Receipt } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, formatMoney, t } from "../../i18n/use.ts";
import { pathId } from "../../routes.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { termRow } from "../../ui/termRow.tsx";

/** A payment's receipt, laid out to print (the print style sheet hides the navigation). */
export default function ReceiptPage() {
  const session = useSession(true);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  useEffect(() => {
    if (session.status !== "signed-in") return;
    admissions.receipt(pathId()).then((answer) => {
      if (answer.ok) setReceipt(answer.data);
      else setFailure(answer);
    });
  }, [session.status]);
  return (
    <Layout session={session}>
      {failure && <ProblemNotice problem={failure.problem} />}
      {receipt && (
        <article class="receipt" data-testid="receipt">
          <h2>{t("receipt.number", { number: receipt.receiptNumber })}</h2>
          <dl>
            {termRow("receipt.payer", `${receipt.payer.name} <${receipt.payer.email}>`)}
            {termRow("receipt.program", `${receipt.program} · ${receipt.intake}`)}
            {termRow("payment.reference", receipt.reference)}
            {termRow("payment.amount", formatMoney(receipt.amount), "receipt-amount")}
            {receipt.refunded.amount > 0 &&
              termRow("receipt.refunded", formatMoney(receipt.refunded))}
            {termRow("receipt.paidAt", formatDate(receipt.paidAt))}
            {termRow("receipt.provider", t(`provider.${receipt.provider}` as MessageKey))}
          </dl>
          <p class="actions no-print">
            <button type="button" onClick={() => print()}>
              {t("receipt.print")}
            </button>{" "}
            <a href={`/portal/applications/${receipt.applicationId}`}>{t("receipt.back")}</a>
          </p>
        </article>
      )}
    </Layout>
  );
}
