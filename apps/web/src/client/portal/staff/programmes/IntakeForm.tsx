import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { Intake } from "../office/types.ts";
import { DateTimeField, isoOf, partsOf } from "../office/ui/DateTimeField.tsx";
import { localProblem } from "../office/ui/local-problem.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";

const FIELDS: FormFields = {
  term: { id: "intake-term", message: "office.intake.error.term" },
  opensAt: { id: "intake-opens-day", message: "office.intake.error.opensAt" },
  deadline: { id: "intake-deadline-day", message: "office.intake.error.deadline" },
  capacity: { id: "intake-capacity", message: "office.intake.error.capacity" },
};

/** A new intake of a programme, or an existing one's term, dates and seats. */
export function IntakeForm({
  programmeId,
  intake,
  onSaved,
  onCancel,
}: {
  programmeId: string;
  intake: Intake | null;
  onSaved: (saved: Intake) => void;
  onCancel: () => void;
}) {
  const [term, setTerm] = useState(intake?.term ?? "");
  const [opens, setOpens] = useState(partsOf(intake?.opensAt ?? null, "09:00"));
  const [deadline, setDeadline] = useState(partsOf(intake?.deadline ?? null, "23:59"));
  const [capacity, setCapacity] = useState(intake ? String(intake.capacity) : "");
  const { busy, problem, send, setProblem } = useSend<Intake>();
  // Opened by a button: the keyboard goes on in the form.
  useEffect(() => document.getElementById("intake-term")?.focus(), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const [opensAt, deadlineAt] = [isoOf(opens), isoOf(deadline)];
    const seats = /^\d+$/.test(capacity.trim()) ? Number(capacity) : null;
    const local = localProblem(
      [!opensAt && "opensAt", !deadlineAt && "deadline", seats === null && "capacity"].filter(
        (name): name is string => Boolean(name),
      ),
    );
    if (local || !opensAt || !deadlineAt || seats === null) return setProblem(local);
    const body = { term: term.trim(), opensAt, deadline: deadlineAt, capacity: seats };
    const saved = await send(() =>
      intake ? officeApi.updateIntake(intake.id, body) : officeApi.createIntake(programmeId, body),
    );
    if (saved) onSaved(saved.data);
  };
  const error = (name: string) => fieldMessage(problem, FIELDS, name);
  return (
    <form class="form panel" onSubmit={submit} noValidate data-testid="intake-form">
      <h3>{t(intake ? "office.intake.edit" : "office.intake.new")}</h3>
      {problem && <OfficeProblem problem={problem} fields={FIELDS} testId="intake-problem" />}
      <Field
        id="intake-term"
        label={t("office.intake.term")}
        hint={t("office.intake.termHint")}
        value={term}
        error={error("term")}
        maxLength={60}
        onInput={(e) => setTerm(inputValue(e))}
      />
      <DateTimeField
        id="intake-opens"
        legend={t("office.intake.opensAt")}
        value={opens}
        onValue={setOpens}
        error={error("opensAt")}
      />
      <DateTimeField
        id="intake-deadline"
        legend={t("office.intake.deadline")}
        value={deadline}
        onValue={setDeadline}
        error={error("deadline")}
      />
      <Field
        id="intake-capacity"
        label={t("office.intake.capacity")}
        hint={t("office.intake.capacityHint")}
        value={capacity}
        error={error("capacity")}
        inputMode="numeric"
        onInput={(e) => setCapacity(inputValue(e))}
      />
      <div class="actions">
        <button type="submit" disabled={busy} data-testid="intake-save">
          {t(intake ? "office.intake.save" : "office.intake.create")}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t("office.cancel")}
        </button>
      </div>
    </form>
  );
}
