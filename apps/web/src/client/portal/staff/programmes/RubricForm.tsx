import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { Rubric } from "../office/types.ts";
import { localProblem } from "../office/ui/local-problem.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";

type Row = { label: string; weight: string };

const FIELDS: FormFields = {
  scale: { id: "rubric-min", message: "office.rubric.error.scale" },
  criteria: { id: "rubric-label-0", message: "office.rubric.error.criteria" },
};

/** A criterion's key, from its label: what the API stores scores under (`academic_record`). */
export const keyOf = (label: string, taken: string[]) => {
  const base =
    label
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .replace(/^(\d)/, "c_$1")
      .slice(0, 36) || "criterion";
  let key = base;
  for (let n = 2; taken.includes(key); n++) key = `${base}_${n}`;
  return key;
};

/**
 * The programme's rubric: criteria with their weights on one scale. Keys are made from the
 * labels (a person never types one). Fixed once an application is scored (409 RUBRIC_IN_USE).
 */
export function RubricForm({
  programmeId,
  rubric,
}: {
  programmeId: string;
  rubric: Rubric | null;
}) {
  const [min, setMin] = useState(String(rubric?.scale.min ?? 1));
  const [max, setMax] = useState(String(rubric?.scale.max ?? 5));
  const [rows, setRows] = useState<Row[]>(
    rubric?.criteria.map((c) => ({ label: c.label, weight: String(c.weight) })) ?? [
      { label: "", weight: "1" },
    ],
  );
  const { busy, problem, done, send, setProblem } = useSend<Rubric>();
  const setRow = (i: number, patch: Partial<Row>) =>
    setRows((now) => now.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  const submit = async (event: Event) => {
    event.preventDefault();
    const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : null);
    const [low, high] = [whole(min), whole(max)];
    const weights = rows.map((row) => whole(row.weight));
    const bad = [
      low === null || high === null ? "scale" : "",
      weights.some((w) => w === null) || rows.some((r) => !r.label.trim()) ? "criteria" : "",
    ].filter(Boolean);
    if (bad.length > 0 || low === null || high === null) return setProblem(localProblem(bad));
    const keys: string[] = [];
    const criteria = rows.map((row, i) => {
      const key = rubric?.criteria[i]?.key ?? keyOf(row.label, keys);
      keys.push(key);
      return { key, label: row.label.trim(), weight: weights[i] ?? 1 };
    });
    await send(() =>
      officeApi.saveRubric(programmeId, { scale: { min: low, max: high }, criteria }),
    );
  };
  const error = (name: string) => fieldMessage(problem, FIELDS, name);
  return (
    <form class="form wide" onSubmit={submit} noValidate data-testid="rubric-form">
      {problem && <OfficeProblem problem={problem} fields={FIELDS} testId="rubric-problem" />}
      <fieldset class="field">
        <legend>{t("office.rubric.scale")}</legend>
        {error("scale") && <p class="field-error">{error("scale")}</p>}
        <div class="inline-fields">
          <div class="field">
            <label for="rubric-min">{t("office.rubric.min")}</label>
            <input
              id="rubric-min"
              class="w4"
              inputMode="numeric"
              value={min}
              onInput={(e) => setMin(inputValue(e))}
            />
          </div>
          <div class="field">
            <label for="rubric-max">{t("office.rubric.max")}</label>
            <input
              id="rubric-max"
              class="w4"
              inputMode="numeric"
              value={max}
              onInput={(e) => setMax(inputValue(e))}
            />
          </div>
        </div>
      </fieldset>
      <fieldset class="field">
        <legend>{t("office.rubric.criteria")}</legend>
        <p class="hint">{t("office.rubric.criteriaHint")}</p>
        {error("criteria") && <p class="field-error">{error("criteria")}</p>}
        {rows.map((row, i) => (
          <div class="inline-fields criterion" key={i} data-testid="rubric-criterion">
            <div class="field">
              <label for={`rubric-label-${i}`}>{t("office.rubric.label", { n: i + 1 })}</label>
              <input
                id={`rubric-label-${i}`}
                maxLength={200}
                value={row.label}
                onInput={(e) => setRow(i, { label: inputValue(e) })}
              />
            </div>
            <div class="field">
              <label for={`rubric-weight-${i}`}>{t("office.rubric.weight", { n: i + 1 })}</label>
              <input
                id={`rubric-weight-${i}`}
                class="w4"
                inputMode="numeric"
                value={row.weight}
                onInput={(e) => setRow(i, { weight: inputValue(e) })}
              />
            </div>
            {rows.length > 1 && (
              <button
                type="button"
                class="secondary"
                onClick={() => setRows(rows.filter((_, j) => j !== i))}
              >
                {t("office.remove")}
                <span class="visually-hidden"> {t("office.rubric.removeOne", { n: i + 1 })}</span>
              </button>
            )}
          </div>
        ))}
        <button
          type="button"
          class="secondary"
          onClick={() => setRows([...rows, { label: "", weight: "1" }])}
          data-testid="rubric-add"
        >
          {t("office.rubric.add")}
        </button>
      </fieldset>
      <button type="submit" disabled={busy} data-testid="rubric-save">
        {t("office.rubric.save")}
      </button>
      {done && (
        <p role="status" data-testid="rubric-saved">
          {t("office.rubric.saved")}
        </p>
      )}
    </form>
  );
}
