import type { BankAccount, Payment } from "../../../api/types.ts";
import { formatDay, formatMoney, t } from "../../../i18n/use.ts";
import { institution } from "../../../ui/branding.ts";
import { termRow } from "../../../ui/termRow.tsx";

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
  return (
    <div class="panel" data-testid="bank-details">
      <h2>{t("fee.bankHeading")}</h2>
      {account ? (
        <p>{t("fee.bankIntro", { amount: formatMoney(payment.amount) })}</p>
      ) : (
        <p>{t("fee.noBankDetails", { contact: institution.contact || t("common.office") })}</p>
      )}
      <dl class="summary">
        {account && termRow("bank.accountName", account.accountName, "bank-account-name")}
        {account && termRow("bank.iban", account.iban, "bank-iban")}
        {account?.bic && termRow("bank.bic", account.bic, "bank-bic")}
        {account?.bankName && termRow("bank.bankName", account.bankName)}
        {termRow("bank.reference", payment.reference, "bank-reference")}
        {termRow("bank.amount", formatMoney(payment.amount), "bank-amount")}
        {termRow("bank.payBy", formatDay(payment.expiresAt))}
      </dl>
      <p>{t("fee.bankLater")}</p>
    </div>
  );
}
