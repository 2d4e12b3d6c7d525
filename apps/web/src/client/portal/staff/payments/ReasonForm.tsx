import { useState } from "preact/hooks";
import type { ApiAnswer } from "../../api/client.ts";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { localProblem } from "../office/ui/local-problem.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";

/**
 * One reason, then an action that needs it (a transfer that never arrived, a waived fee),
 * optionally with an amount (a refund: blank gives back all that is left).
 */
export function ReasonForm<T>({
  id,
  label,
  submitLabel,
  danger,
  amount,
  run,
  onDone,
}: {
  id: string;
  label: string;
  submitLabel: string;
  danger?: boolean;
  /** An amount field: its label and how to read what is typed (null: not an amount). */
  amount?: { label: string; hint: string; read: (text: string) => number | null };
  run: (reason: string, amount: number | undefined) => Promise<ApiAnswer<T>>;
  onDone: (result: T) => void;
}) {
  const [reason, setReason] = useState("");
  const [money, setMoney] = useState("");
  const { busy, problem, send, setProblem } = useSend<T>();
  const fields: FormFields = {
    reason: { id: `${id}-reason`, message: "office.payment.error.reason" },
    amount: { id: `${id}-amount`, message: "office.payment.error.amount" },
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const value = amount && money.trim() ? amount.read(money) : undefined;
    const bad = [!reason.trim() && "reason", value === null && "amount"].filter(
      (name): name is string => Boolean(name),
    );
    if (bad.length > 0 || value === null) return setProblem(localProblem(bad));
    const done = await send(() => run(reason.trim(), value));
    if (done) onDone(done.data);
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid={id}>
      {problem && <OfficeProblem problem={problem} fields={fields} />}
      {amount && (
        <Field
          id={`${id}-amount`}
          label={amount.label}
          hint={amount.hint}
          value={money}
          error={fieldMessage(problem, fields, "amount")}
          onInput={(e) => setMoney(inputValue(e))}
        />
      )}
      <Field
        id={`${id}-reason`}
        label={label}
        rows={2}
        value={reason}
        maxLength={2000}
        error={fieldMessage(problem, fields, "reason")}
        onInput={(e) => setReason(inputValue(e))}
      />
      <button
        type="submit"
        class={danger ? "danger" : ""}
        disabled={busy}
        data-testid={`${id}-submit`}
      >
        {submitLabel}
      </button>
    </form>
  );
}
