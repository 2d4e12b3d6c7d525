import { useRef } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { FeeSummary, Payment } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, formatMoney, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";

/**
 * The fee: what is owed, the pending payment's instructions (bank transfer) or its Checkout link
 * (card), and every payment with its receipt. One Idempotency-Key per attempt, kept for a retry
 * of the same attempt, so a double click or a retry after a network error makes one payment.
 */
export function PaymentStep({
  applicationId,
  fee,
  payments,
  editable,
  onChange,
}: {
  applicationId: string;
  fee: FeeSummary;
  payments: Payment[];
  editable: boolean;
  onChange: () => void;
}) {
  const { busy, problem, send } = useSend<Payment>();
  const attempt = useRef<Record<string, string>>({});
  const pending = payments.find((p) => p.status === "pending");
  const pay = async (provider: "manual" | "stripe") => {
    attempt.current[provider] ??= crypto.randomUUID();
    const key = attempt.current[provider];
    const made = await send(() => admissions.pay(applicationId, provider, key));
    if (!made) return;
    delete attempt.current[provider];
    if (made.data.checkoutUrl) location.assign(made.data.checkoutUrl);
    else onChange();
  };
  const settled = fee.status !== "unpaid";
  return (
    <div>
      <p data-testid="fee-status">
        {t(`fee.${fee.status}` as MessageKey, { fee: formatMoney(fee.fee) })}
        {fee.waiver && ` ${t("fee.waiverReason", { reason: fee.waiver.reason })}`}
      </p>
      {problem && <ProblemNotice problem={problem} testId="pay-problem" />}
      {pending && (
        <div class="panel" data-testid="pending-payment">
          <p>
            {t("payment.pending", {
              reference: pending.reference,
              until: formatDate(pending.expiresAt),
            })}
          </p>
          {pending.instructions && <p class="instructions">{pending.instructions}</p>}
          {pending.checkoutUrl && (
            <p>
              <a href={pending.checkoutUrl} data-testid="continue-checkout">
                {t("payment.continueCheckout")}
              </a>
            </p>
          )}
        </div>
      )}
      {editable && !settled && !pending && (
        <p class="actions">
          <button type="button" disabled={busy} onClick={() => pay("manual")} data-testid="pay">
            {t("payment.manual")}
          </button>{" "}
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => pay("stripe")}
            data-testid="pay-stripe"
          >
            {t("payment.stripe")}
          </button>
        </p>
      )}
      {payments.length > 0 && (
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
      )}
    </div>
  );
}
