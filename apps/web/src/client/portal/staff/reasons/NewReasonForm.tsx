import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { Reason } from "../office/types.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { keyOf } from "../programmes/RubricForm.tsx";

export const REASON_KINDS = [
  "rejection",
  "withdrawal",
  "decline",
] as const satisfies readonly Reason["kind"][];

const FIELDS: FormFields = {
  label: { id: "reason-label", message: "office.reasons.error.label" },
  code: { id: "reason-code", message: "office.reasons.error.code" },
};

/** A new reason: its kind, its words; the code is made from the words unless typed. */
export function NewReasonForm({ onCreated }: { onCreated: () => void }) {
  const [kind, setKind] = useState<Reason["kind"]>("rejection");
  const [label, setLabel] = useState("");
  const [code, setCode] = useState("");
  const { busy, problem, done, send } = useSend<Reason>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { kind, label: label.trim(), code: code.trim() || keyOf(label, []).slice(0, 40) };
    if (await send(() => officeApi.createReason(body))) {
      setLabel("");
      setCode("");
      onCreated();
    }
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="reason-form">
      {problem && <OfficeProblem problem={problem} fields={FIELDS} />}
      <div class="field">
        <label for="reason-kind">{t("office.reasons.kind")}</label>
        <select
          id="reason-kind"
          value={kind}
          onChange={(e) => setKind(inputValue(e) as Reason["kind"])}
        >
          {REASON_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`office.reasons.kind.${k}` as MessageKey)}
            </option>
          ))}
        </select>
      </div>
      <Field
        id="reason-label"
        label={t("office.reasons.label")}
        value={label}
        error={fieldMessage(problem, FIELDS, "label")}
        maxLength={200}
        onInput={(e) => setLabel(inputValue(e))}
      />
      <Field
        id="reason-code"
        label={t("office.reasons.codeOptional")}
        hint={t("office.reasons.codeHint")}
        value={code}
        error={fieldMessage(problem, FIELDS, "code")}
        maxLength={40}
        onInput={(e) => setCode(inputValue(e))}
      />
      <button type="submit" disabled={busy} data-testid="reason-save">
        {t("office.reasons.create")}
      </button>
      {done && (
        <p role="status" data-testid="reason-created">
          {t("office.reasons.created", { label: done.data.label })}
        </p>
      )}
    </form>
  );
}
