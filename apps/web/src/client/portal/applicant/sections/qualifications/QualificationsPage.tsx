import type { Application } from "../../../api/types.ts";
import { t } from "../../../i18n/use.ts";
import { Field } from "../../../ui/Field.tsx";
import { fieldError, ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { inputValue } from "../../../ui/useForm.ts";
import { useApplication } from "../../application/useApplication.ts";
import { SaveStatus } from "../SaveStatus.tsx";
import { SaveAndReturn, SectionLayout } from "../SectionLayout.tsx";
import { useAutosave } from "../useAutosave.ts";

type Form = { priorQualification: string; priorInstitution: string; graduationYear: string };

const formOf = (a: Application): Form => ({
  priorQualification: a.priorQualification,
  priorInstitution: a.priorInstitution,
  graduationYear: a.graduationYear === null ? "" : String(a.graduationYear),
});

/**
 * The year as typed: a number when it is one, else the text itself, so the API's 422 says what
 * is wrong (a year left as "20x4" is never silently saved as no year).
 */
const yearOf = (text: string): number | null =>
  text.trim() === ""
    ? null
    : /^\d+$/.test(text.trim())
      ? Number(text)
      : (text as unknown as number);

const FIELDS = [
  {
    name: "priorQualification",
    id: "prior-qualification",
    label: "application.priorQualification",
  },
  { name: "priorInstitution", id: "prior-institution", label: "application.priorInstitution" },
  { name: "graduationYear", id: "graduation-year", label: "application.graduationYear" },
] as const;

function QualificationsForm({
  application,
  onSaved,
}: {
  application: Application;
  onSaved: (a: Application) => void;
}) {
  const { form, change, state, problem, save, resolve } = useAutosave(
    application,
    formOf,
    (f) => ({ ...f, graduationYear: yearOf(f.graduationYear) }),
    onSaved,
  );
  const fields = FIELDS.map((f) => ({ name: f.name, id: f.id, label: t(f.label) }));
  return (
    <form class="form" noValidate onSubmit={(e) => e.preventDefault()}>
      {problem && (
        <ProblemNotice problem={problem} fields={fields} testId="save-problem" focus={false} />
      )}
      <p class="hint">{t("section.autosave")}</p>
      <Field
        id="prior-qualification"
        label={t("application.priorQualification")}
        maxLength={200}
        value={form.priorQualification}
        error={fieldError(problem, "priorQualification")}
        onInput={(e) => change("priorQualification")(inputValue(e))}
        data-testid="prior-qualification"
      />
      <Field
        id="prior-institution"
        label={t("application.priorInstitution")}
        maxLength={200}
        value={form.priorInstitution}
        error={fieldError(problem, "priorInstitution")}
        onInput={(e) => change("priorInstitution")(inputValue(e))}
        data-testid="prior-institution"
      />
      <Field
        id="graduation-year"
        label={t("application.graduationYear")}
        hint={t("qualifications.yearHint")}
        inputMode="numeric"
        maxLength={4}
        value={form.graduationYear}
        error={fieldError(problem, "graduationYear")}
        onInput={(e) => change("graduationYear")(inputValue(e))}
        data-testid="graduation-year"
      />
      <SaveStatus state={state} resolve={resolve} />
      <SaveAndReturn id={application.id} save={save} />
    </form>
  );
}

/** Qualifications: the highest so far, where, and the year (saved as typed). */
export default function QualificationsPage() {
  const state = useApplication();
  return (
    <SectionLayout state={state}>
      {(application) => (
        <QualificationsForm application={application} onSaved={state.setApplication} />
      )}
    </SectionLayout>
  );
}
