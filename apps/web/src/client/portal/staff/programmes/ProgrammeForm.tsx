import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { Program, ProgramCreate } from "../office/types.ts";
import { localProblem } from "../office/ui/local-problem.ts";
import { fromMinor, toMinor } from "../office/ui/money.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";

/** The catalogue's lists, as the API names them (test/portal-office.test.ts holds them to it). */
export const LEVELS = ["certificate", "diploma", "bachelor", "master", "doctorate"] as const;
export const DOCUMENT_TYPES = [
  "transcript",
  "identity_document",
  "personal_statement",
  "recommendation_letter",
  "cv",
  "language_certificate",
  "portfolio",
  "research_proposal",
] as const satisfies readonly Program["requiredDocuments"][number][];

const FIELDS: FormFields = {
  code: { id: "programme-code", message: "office.programme.error.code" },
  name: { id: "programme-name", message: "office.programme.error.name" },
  level: { id: "programme-level", message: "office.programme.error.level" },
  department: { id: "programme-department", message: "office.programme.error.department" },
  durationMonths: { id: "programme-duration", message: "office.programme.error.duration" },
  applicationFee: { id: "programme-fee", message: "office.programme.error.fee" },
  description: { id: "programme-description", message: "office.programme.error.text" },
  entryRequirements: { id: "programme-requirements", message: "office.programme.error.text" },
  requiredDocuments: { id: "programme-documents", message: "office.programme.error.documents" },
};

type Form = {
  code: string;
  name: string;
  level: Program["level"];
  department: string;
  durationMonths: string;
  fee: string;
  currency: string;
  description: string;
  entryRequirements: string;
  requiredDocuments: Program["requiredDocuments"];
};

const formOf = (p: Program | null): Form => ({
  code: p?.code ?? "",
  name: p?.name ?? "",
  level: p?.level ?? "bachelor",
  department: p?.department ?? "",
  durationMonths: p ? String(p.durationMonths) : "",
  fee: p ? fromMinor(p.applicationFee.amount, p.applicationFee.currency) : "",
  currency: p?.applicationFee.currency ?? "EUR",
  description: p?.description ?? "",
  entryRequirements: p?.entryRequirements ?? "",
  requiredDocuments: p?.requiredDocuments ?? [],
});

/**
 * A programme's details: a new one (everything) or an existing one's (what changed is sent
 * whole; the API judges each field and its 422 is shown beside the field, in words).
 */
export function ProgrammeForm({
  programme,
  onSaved,
}: {
  programme: Program | null;
  onSaved: (saved: Program) => void;
}) {
  const [form, setForm] = useState<Form>(formOf(programme));
  const { busy, problem, done, send, setProblem } = useSend<Program>();
  const set = (patch: Partial<Form>) => setForm((now) => ({ ...now, ...patch }));
  const submit = async (event: Event) => {
    event.preventDefault();
    const amount = toMinor(form.fee, form.currency);
    const months = /^\d+$/.test(form.durationMonths.trim()) ? Number(form.durationMonths) : null;
    const unsendable = [
      amount === null ? "applicationFee" : "",
      months === null ? "durationMonths" : "",
    ];
    const local = localProblem(unsendable.filter(Boolean));
    if (local || amount === null || months === null) return setProblem(local);
    const body: ProgramCreate = {
      code: form.code.trim().toUpperCase(),
      name: form.name.trim(),
      level: form.level,
      department: form.department.trim(),
      durationMonths: months,
      applicationFee: { amount, currency: form.currency.trim().toUpperCase() },
      description: form.description,
      entryRequirements: form.entryRequirements,
      requiredDocuments: form.requiredDocuments,
    };
    const saved = await send(() =>
      programme ? officeApi.updateProgramme(programme.id, body) : officeApi.createProgramme(body),
    );
    if (saved) onSaved(saved.data);
  };
  const error = (name: string) => fieldMessage(problem, FIELDS, name);
  const toggleDocument = (type: Form["requiredDocuments"][number], on: boolean) =>
    set({
      requiredDocuments: on
        ? [...form.requiredDocuments, type]
        : form.requiredDocuments.filter((d) => d !== type),
    });
  return (
    <form class="form wide" onSubmit={submit} noValidate data-testid="programme-form">
      {problem && <OfficeProblem problem={problem} fields={FIELDS} testId="programme-problem" />}
      <Field
        id="programme-code"
        label={t("office.programme.code")}
        hint={t("office.programme.codeHint")}
        value={form.code}
        error={error("code")}
        maxLength={32}
        onInput={(e) => set({ code: inputValue(e) })}
      />
      <Field
        id="programme-name"
        label={t("office.programme.name")}
        value={form.name}
        error={error("name")}
        maxLength={200}
        onInput={(e) => set({ name: inputValue(e) })}
      />
      <div class="field">
        <label for="programme-level">{t("office.programme.level")}</label>
        <select
          id="programme-level"
          value={form.level}
          onChange={(e) => set({ level: inputValue(e) as Form["level"] })}
        >
          {LEVELS.map((level) => (
            <option key={level} value={level}>
              {t(`level.${level}` as MessageKey)}
            </option>
          ))}
        </select>
      </div>
      <Field
        id="programme-department"
        label={t("office.programme.department")}
        value={form.department}
        error={error("department")}
        maxLength={200}
        onInput={(e) => set({ department: inputValue(e) })}
      />
      <Field
        id="programme-duration"
        label={t("office.programme.duration")}
        hint={t("office.programme.durationHint")}
        value={form.durationMonths}
        error={error("durationMonths")}
        inputMode="numeric"
        onInput={(e) => set({ durationMonths: inputValue(e) })}
      />
      <div class="inline-fields">
        <Field
          id="programme-fee"
          label={t("office.programme.fee")}
          hint={t("office.programme.feeHint")}
          value={form.fee}
          error={error("applicationFee")}
          inputMode="text"
          onInput={(e) => set({ fee: inputValue(e) })}
        />
        <Field
          id="programme-currency"
          label={t("office.programme.currency")}
          value={form.currency}
          maxLength={3}
          onInput={(e) => set({ currency: inputValue(e) })}
        />
      </div>
      <fieldset class="field" id="programme-documents">
        <legend>{t("office.programme.documents")}</legend>
        {error("requiredDocuments") && <p class="field-error">{error("requiredDocuments")}</p>}
        {DOCUMENT_TYPES.map((type) => (
          <label key={type} class="choice">
            <input
              type="checkbox"
              checked={form.requiredDocuments.includes(type)}
              onChange={(e) => toggleDocument(type, (e.currentTarget as HTMLInputElement).checked)}
              data-testid={`programme-document-${type}`}
            />
            {t(`document.${type}` as MessageKey)}
          </label>
        ))}
      </fieldset>
      <Field
        id="programme-description"
        label={t("office.programme.description")}
        rows={4}
        value={form.description}
        error={error("description")}
        onInput={(e) => set({ description: inputValue(e) })}
      />
      <Field
        id="programme-requirements"
        label={t("office.programme.requirements")}
        rows={4}
        value={form.entryRequirements}
        error={error("entryRequirements")}
        onInput={(e) => set({ entryRequirements: inputValue(e) })}
      />
      <button type="submit" disabled={busy} data-testid="programme-save">
        {t(programme ? "office.programme.save" : "office.programme.create")}
      </button>
      {done && programme && (
        <p role="status" data-testid="programme-saved">
          {t("office.programme.saved")}
        </p>
      )}
    </form>
  );
}
