import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, formatMoney, t } from "../../i18n/use.ts";
import { officeApi } from "../office/api.ts";
import type { FeeSummary, Payment } from "../office/types.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import type { StaffSession } from "../ui/session.ts";
import { PaymentActions } from "./PaymentActions.tsx";
import { ReasonForm } from "./ReasonForm.tsx";

/**
 * The application's fee for the office (admins, on the application page): paid, waived, due or
 * awaiting a transfer; its payments, each to confirm or refund; the fee waived with a reason.
 */
export function FeePanel({
  session,
  applicationId,
}: {
  session: StaffSession;
  applicationId: string;
}) {
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  const fee = useLoad(session, () => officeApi.fee(applicationId), [reloads]);
  const payments = useLoad(session, () => officeApi.payments(applicationId), [reloads]);
  const changed = (message: string) => {
    setNotice(message);
    setChosen(null);
    setReloads((n) => n + 1);
  };
  const f: FeeSummary | null = fee.data;
  const state = f?.pendingPaymentId ? "pending" : f?.status;
  const waivable = f && f.status === "unpaid" && !f.pendingPaymentId;
  return (
    <section aria-labelledby="fee-title" data-testid="fee-panel">
      <h2 id="fee-title">{t("office.fee.title")}</h2>
      {notice && (
        <p role="status" class="notice" data-testid="fee-notice">
          {notice}
        </p>
      )}
      <Loaded loading={!f || !payments.data} failure={fee.failure ?? payments.failure}>
        {f && payments.data && (
          <>
            <p data-testid="fee-state" data-state={state}>
              {t(`office.fee.state.${state}` as MessageKey, { fee: formatMoney(f.fee) })}
            </p>
            {f.waiver && <p class="muted">{t("fee.waiverReason", { reason: f.waiver.reason })}</p>}
            {payments.data.results.length > 0 && (
              <ul class="plain" data-testid="fee-payments">
                {payments.data.results.map((p: Payment) => (
                  <li key={p.id}>
                    <code>{p.reference}</code> · {formatMoney(p.amount)} ·{" "}
                    {t(`paymentStatus.${p.status}` as MessageKey)} · {formatDate(p.createdAt)}{" "}
                    <button
                      type="button"
                      class="link-button"
                      onClick={() => setChosen(chosen === p.id ? null : p.id)}
                      aria-expanded={chosen === p.id}
                    >
                      {t("office.fee.manage", { reference: p.reference })}
                    </button>
                    {chosen === p.id && (
                      <div class="panel">
                        <PaymentActions payment={p} onChanged={(_, message) => changed(message)} />
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {waivable && (
              <details>
                <summary>{t("office.fee.waive")}</summary>
                <ReasonForm
                  id="fee-waive"
                  label={t("office.fee.waiveReason")}
                  submitLabel={t("office.fee.waive")}
                  run={(reason) => officeApi.waive(applicationId, reason)}
                  onDone={() => changed(t("office.fee.waived"))}
                />
              </details>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
