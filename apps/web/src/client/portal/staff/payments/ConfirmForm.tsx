import { useEffect, useState } from "preact/hooks";
import { formatMoney, t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { Payment } from "../office/types.ts";
import { localProblem } from "../office/ui/local-problem.ts";
import { fromMinor, toMinor } from "../office/ui/money.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";

const FIELDS: FormFields = {
  received: { id: "confirm-received", message: "office.payment.error.received" },
  note: { id: "confirm-note", message: "office.payment.error.note" },
};

/**
 * A bank transfer confirmed with what the statement shows. Short is refused by the API and
 * nothing changes (PAYMENT_SHORT says by how much); over is confirmed with the surplus kept.
 */
export function ConfirmForm({
  payment,
  onDone,
}: {
  payment: Payment;
  onDone: (p: Payment) => void;
}) {
  const [received, setReceived] = useState(
    fromMinor(payment.amount.amount, payment.amount.currency),
  );
  const [note, setNote] = useState("");
  const { busy, problem, send, setProblem } = useSend<Payment>();
  useEffect(() => document.getElementById("confirm-received")?.focus(), [payment.id]);
  const submit = async (event: Event) => {
    event.preventDefault();
    const amount = toMinor(received, payment.amount.currency);
    if (amount === null || amount === 0) return setProblem(localProblem(["received"]));
    const body = note.trim() ? { received: amount, note: note.trim() } : { received: amount };
    const done = await send(() => officeApi.confirm(payment.id, body));
    if (done) onDone(done.data);
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="confirm-form">
      {problem && <OfficeProblem problem={problem} fields={FIELDS} testId="confirm-problem" />}
      <Field
        id="confirm-received"
        label={t("office.payment.received", { currency: payment.amount.currency })}
        hint={t("office.payment.receivedHint", { amount: formatMoney(payment.amount) })}
        value={received}
        error={fieldMessage(problem, FIELDS, "received")}
        onInput={(e) => setReceived(inputValue(e))}
      />
      <Field
        id="confirm-note"
        label={t("office.payment.note")}
        hint={t("office.payment.noteHint")}
        value={note}
        maxLength={2000}
        error={fieldMessage(problem, FIELDS, "note")}
        onInput={(e) => setNote(inputValue(e))}
      />
      <button type="submit" disabled={busy} data-testid="payment-confirm">
        {t("office.payment.confirm")}
      </button>
    </form>
  );
}
