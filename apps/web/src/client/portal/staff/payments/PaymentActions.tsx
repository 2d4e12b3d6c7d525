import { formatMoney, t } from "../../i18n/use.ts";
import { officeApi } from "../office/api.ts";
import type { Payment } from "../office/types.ts";
import { toMinor } from "../office/ui/money.ts";
import { ConfirmForm } from "./ConfirmForm.tsx";
import { ReasonForm } from "./ReasonForm.tsx";

/** What arrived beyond the fee, for the office to return by transfer (0 when nothing). */
export const surplusOf = (p: Payment) =>
  p.received && p.received.amount > p.amount.amount ? p.received.amount - p.amount.amount : 0;

/**
 * What the office can do with one payment: a pending transfer confirmed (with what arrived) or
 * recorded as not received; a payment that went through refunded, in part or in full.
 */
export function PaymentActions({
  payment,
  onChanged,
}: {
  payment: Payment;
  onChanged: (payment: Payment, message: string) => void;
}) {
  const { currency } = payment.amount;
  const left = payment.amount.amount - payment.refunded.amount;
  const surplus = surplusOf(payment);
  if (payment.status === "pending" && payment.provider === "manual") {
    return (
      <>
        <h3>{t("office.payment.confirmTitle")}</h3>
        <ConfirmForm
          payment={payment}
          onDone={(p) =>
            onChanged(
              p,
              surplusOf(p) > 0
                ? t("office.payment.confirmedOver", {
                    surplus: formatMoney({ amount: surplusOf(p), currency }),
                  })
                : t("office.payment.confirmed", { receipt: p.receiptNumber ?? "" }),
            )
          }
        />
        <h3>{t("office.payment.failTitle")}</h3>
        <ReasonForm<Payment>
          id="payment-fail"
          label={t("office.payment.failReason")}
          submitLabel={t("office.payment.fail")}
          danger
          run={(reason) => officeApi.fail(payment.id, reason)}
          onDone={(p) => onChanged(p, t("office.payment.failed"))}
        />
      </>
    );
  }
  if ((payment.status === "succeeded" || payment.status === "refunded") && left > 0) {
    return (
      <>
        {surplus > 0 && (
          <p class="notice" data-testid="payment-surplus">
            {t("office.payment.surplus", { surplus: formatMoney({ amount: surplus, currency }) })}
          </p>
        )}
        <h3>{t("office.payment.refundTitle")}</h3>
        <ReasonForm<Payment>
          id="payment-refund"
          label={t("office.payment.refundReason")}
          submitLabel={t("office.payment.refund")}
          amount={{
            label: t("office.payment.refundAmount", { currency }),
            hint: t("office.payment.refundHint", { left: formatMoney({ amount: left, currency }) }),
            read: (text) => toMinor(text, currency),
          }}
          run={(reason, amount) =>
            officeApi.refund(payment.id, amount === undefined ? { reason } : { reason, amount })
          }
          onDone={(p) =>
            onChanged(p, t("office.payment.refunded", { amount: formatMoney(p.refunded) }))
          }
        />
      </>
    );
  }
  return <p class="muted">{t("office.payment.nothingToDo")}</p>;
}
