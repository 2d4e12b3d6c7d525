import { useRef } from "preact/hooks";
import { admissions } from "../../../api/admissions.ts";
import type { FeeSummary, Payment } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatMoney, t } from "../../../i18n/use.ts";
import { institution } from "../../../ui/branding.ts";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { useSend } from "../../../ui/useForm.ts";
import { BankDetails } from "./BankDetails.tsx";
import { PaymentsTable } from "./PaymentsTable.tsx";

/**
 * The fee: what is owed; the waiting payment's bank details and reference (transfer) or its
 * Checkout link (card); the ways to pay the deployment offers (card only where Stripe is
 * configured: the fee's `methods`); how to ask for a waiver; every payment with its receipt.
 * One Idempotency-Key per attempt, kept for a retry of the same attempt, so a double click or
 * a retry after a network error makes one payment.
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
  const unpaid = fee.status === "unpaid";
  const contact = institution.contact || t("common.office");
  return (
    <div>
      <p data-testid="fee-status">
        {t(`fee.${fee.status}` as MessageKey, { fee: formatMoney(fee.fee) })}
        {fee.waiver && ` ${t("fee.waiverReason", { reason: fee.waiver.reason })}`}
      </p>
      {problem && <ProblemNotice problem={problem} testId="pay-problem" />}
      {pending?.provider === "manual" && (
        <div data-testid="pending-payment">
          <BankDetails account={fee.bankAccount} payment={pending} />
        </div>
      )}
      {pending?.checkoutUrl && (
        <div class="panel" data-testid="pending-payment">
          <p>
            <a href={pending.checkoutUrl} data-testid="continue-checkout">
              {t("payment.continueCheckout")}
            </a>
          </p>
        </div>
      )}
      {editable && unpaid && !pending && (
        <>
          <section class="panel" aria-labelledby="transfer-heading">
            <h2 id="transfer-heading">{t("fee.bankHeading")}</h2>
            <p>{t("fee.bankStart")}</p>
            <button type="button" disabled={busy} onClick={() => pay("manual")} data-testid="pay">
              {t("payment.manual")}
            </button>
          </section>
          {fee.methods.includes("stripe") && (
            <section class="panel" aria-labelledby="card-heading">
              <h2 id="card-heading">{t("fee.cardHeading")}</h2>
              <p>{t("fee.cardIntro")}</p>
              <button
                type="button"
                disabled={busy}
                onClick={() => pay("stripe")}
                data-testid="pay-stripe"
              >
                {t("payment.stripe")}
              </button>
            </section>
          )}
        </>
      )}
      {editable && unpaid && (
        <section aria-labelledby="waiver-heading">
          <h2 id="waiver-heading">{t("fee.waiverHeading")}</h2>
          <p data-testid="fee-waiver">{t("fee.waiverText", { contact })}</p>
        </section>
      )}
      {payments.length > 0 && <PaymentsTable payments={payments} />}
    </div>
  );
}
