import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { ApiError } from "../../api/client.ts";
import type { Payment } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";

/**
 * Where Stripe Checkout sends the applicant back (ADMISSIONS_PAYMENT_RETURN_URL, with `payment`,
 * `result` and `session_id`). The page asks the API to look the payment up at Stripe now
 * (`refresh`), so it does not wait for the webhook, and shows the outcome.
 */
export default function PaymentReturnPage() {
  const session = useSession(true);
  const params = new URLSearchParams(location.search);
  const paymentId = params.get("payment") ?? "";
  // The API's cancel_url says `result=cancelled` (apps/admissions payments/internal/stripe.ts).
  const cancelled = params.get("result") === "cancelled";
  const [payment, setPayment] = useState<Payment | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  useEffect(() => {
    if (session.status !== "signed-in" || !paymentId) return;
    admissions.refreshPayment(paymentId).then((answer) => {
      if (answer.ok) setPayment(answer.data);
      else setFailure(answer);
    });
  }, [session.status]);
  return (
    <Layout session={session}>
      {!paymentId && <p role="alert">{t("return.noPayment")}</p>}
      {cancelled && <p data-testid="payment-cancelled">{t("return.cancelled")}</p>}
      {failure && <ProblemNotice problem={failure.problem} />}
      {payment && (
        <>
          <p role="status" data-testid="payment-result" data-status={payment.status}>
            {t(`return.${payment.status}` as MessageKey)}
          </p>
          <p>
            <a
              href={`/portal/applications/${payment.applicationId}/fee`}
              data-testid="return-application"
            >
              {t("receipt.back")}
            </a>
            {payment.receiptNumber && (
              <>
                {" · "}
                <a href={`/portal/receipts/${payment.id}`} data-testid="return-receipt">
                  {t("payment.receipt")}
                </a>
              </>
            )}
          </p>
        </>
      )}
    </Layout>
  );
}
