import type { BankAccount, Payment } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDay, formatMoney, t } from "../../../i18n/use.ts";
import { institution } from "../../../ui/branding.ts";

/**
 * Where the transfer goes and what it must quote: the institution's account (from the API's
 * configuration) and this payment's own reference, amount and date. Without a configured
 * account, the page says whom to ask rather than show none. The payment's own `instructions`
 * (ADMISSIONS_MANUAL_PAYMENT_INSTRUCTIONS, one language) are for the API's other clients: the
 * page says the same in the applicant's language.
 */
export function BankDetails({
  account,
  payment,
}: {
  account: BankAccount | null;
  payment: Payment;
}) {
  const row = (key: MessageKey, value: string, testId?: string) => (
    <div>
      <dt>{t(key)}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
  return (
    <div class="panel" data-testid="bank-details">
      <h2>{t("fee.bankHeading")}</h2>
      {account ? (
        <p>{t("fee.bankIntro", { amount: formatMoney(payment.amount) })}</p>
      ) : (
        <p>{t("fee.noBankDetails", { contact: institution.contact || t("common.office") })}</p>
      )}
      <dl class="summary">
        {account && row("bank.accountName", account.accountName, "bank-account-name")}
        {account && row("bank.iban", account.iban, "bank-iban")}
        {account?.bic && row("bank.bic", account.bic, "bank-bic")}
        {account?.bankName && row("bank.bankName", account.bankName)}
        {row("bank.reference", payment.reference, "bank-reference")}
        {row("bank.amount", formatMoney(payment.amount), "bank-amount")}
        {row("bank.payBy", formatDay(payment.expiresAt))}
      </dl>
      <p>{t("fee.bankLater")}</p>
    </div>
  );
}
