import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import { DateTimeField, isoOf, partsOf } from "../office/ui/DateTimeField.tsx";
import { localProblem } from "../office/ui/local-problem.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";

export type AuditFilterValues = { actorId: string; from: string; to: string };

const FIELDS: FormFields = {
  from: { id: "audit-from-day", message: "office.audit.error.date" },
  to: { id: "audit-to-day", message: "office.audit.error.date" },
};

const empty = { day: "", month: "", year: "", time: "00:00" };
const isBlank = (p: typeof empty) => !p.day.trim() && !p.month.trim() && !p.year.trim();

/** Who did it and between which days (the application comes from the address, ?applicationId=). */
export function AuditFilters({
  staff,
  onApply,
}: {
  staff: User[];
  onApply: (v: AuditFilterValues) => void;
}) {
  const [actorId, setActorId] = useState("");
  const [from, setFrom] = useState(partsOf(null));
  const [to, setTo] = useState(partsOf(null));
  const [problem, setProblem] = useState<ReturnType<typeof localProblem>>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    const dayOf = (p: typeof empty) => (isBlank(p) ? "" : isoOf({ ...p, time: "00:00" }));
    const [start, end] = [dayOf(from), dayOf(to)];
    const bad = [start === null && "from", end === null && "to"].filter((n): n is string =>
      Boolean(n),
    );
    setProblem(localProblem(bad));
    // "To" includes its whole day: the API's `to` is exclusive, so the next midnight.
    const endOfDay = end ? new Date(Date.parse(end) + 86_400_000).toISOString() : "";
    if (bad.length === 0) onApply({ actorId, from: start ?? "", to: endOfDay });
  };
  return (
    <form
      class="filters"
      onSubmit={submit}
      noValidate
      aria-label={t("office.audit.filters")}
      data-testid="audit-filters"
    >
      {problem && <OfficeProblem problem={problem} fields={FIELDS} />}
      <div class="field">
        <label for="audit-actor">{t("office.audit.actor")}</label>
        <select id="audit-actor" value={actorId} onChange={(e) => setActorId(inputValue(e))}>
          <option value="">{t("office.audit.anyone")}</option>
          {staff.map((u) => (
            <option key={u.id} value={u.id}>
              {u.fullName}
            </option>
          ))}
        </select>
      </div>
      <DateTimeField
        id="audit-from"
        legend={t("office.audit.from")}
        value={from}
        onValue={setFrom}
        withTime={false}
        error={fieldMessage(problem, FIELDS, "from")}
      />
      <DateTimeField
        id="audit-to"
        legend={t("office.audit.to")}
        value={to}
        onValue={setTo}
        withTime={false}
        error={fieldMessage(problem, FIELDS, "to")}
      />
      <div class="filter-actions">
        <button type="submit" data-testid="audit-filter">
          {t("office.queue.apply")}
        </button>
      </div>
    </form>
  );
}
