import type { Payment } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatMoney, t } from "../../../i18n/use.ts";

/** Every payment of the application, newest first, with its receipt once it has one. */
export function PaymentsTable({ payments }: { payments: Payment[] }) {
  return (
    <table class="payments">
      <caption>{t("payment.history")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("payment.reference")}</th>
          <th scope="col">{t("payment.amount")}</th>
          <th scope="col">{t("payment.status")}</th>
          <th scope="col">{t("payment.receipt")}</th>
        </tr>
      </thead>
      <tbody>
        {payments.map((p) => (
          <tr key={p.id}>
            <td>{p.reference}</td>
            <td>{formatMoney(p.amount)}</td>
            <td>{t(`paymentStatus.${p.status}` as MessageKey)}</td>
            <td>
              {p.receiptNumber ? (
                <a href={`/portal/receipts/${p.id}`} data-testid="receipt-link">
                  {p.receiptNumber}
                </a>
              ) : (
                "—"
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
