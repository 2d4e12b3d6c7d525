import { useEffect, useRef, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { Application, ApplicationUpdate } from "../../api/types.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { problemText } from "../../ui/ProblemNotice.tsx";
import { inputValue } from "../../ui/useForm.ts";

type Form = {
  personalStatement: string;
  priorQualification: string;
  priorInstitution: string;
  graduationYear: string;
};
type SaveState =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  | { kind: "conflict" }
  | { kind: "error"; message: string };

const AUTOSAVE_MS = 800;

const formOf = (a: Application): Form => ({
  personalStatement: a.personalStatement,
  priorQualification: a.priorQualification,
  priorInstitution: a.priorInstitution,
  graduationYear: a.graduationYear === null ? "" : String(a.graduationYear),
});

const bodyOf = (form: Form): ApplicationUpdate => ({
  personalStatement: form.personalStatement,
  priorQualification: form.priorQualification,
  priorInstitution: form.priorInstitution,
  graduationYear: form.graduationYear.trim() === "" ? null : Number(form.graduationYear),
});

/**
 * The draft's fields, saved as the applicant types (a pause of 0.8 s). Each save names the
 * version it was made from (If-Match); if the application changed since (another tab, another
 * device) the API answers 412, and the page says so and lets the applicant choose: their text
 * over the newer one, or the newer one.
 */
export function DetailsStep({
  application,
  onSaved,
  registerFlush,
}: {
  application: Application;
  onSaved: (a: Application) => void;
  /** Lets the submit step wait for a pending save. */
  registerFlush: (flush: () => Promise<boolean>) => void;
}) {
  const [form, setForm] = useState<Form>(() => formOf(application));
  const [state, setState] = useState<SaveState>({ kind: "idle" });
  const formRef = useRef(form);
  const version = useRef(application.version);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saving = useRef<Promise<boolean> | null>(null);

  async function save(): Promise<boolean> {
    clearTimeout(timer.current);
    if (saving.current) await saving.current;
    if (!dirty.current) return true;
    dirty.current = false;
    setState({ kind: "saving" });
    const run = admissions.updateApplication(
      application.id,
      version.current,
      bodyOf(formRef.current),
    );
    saving.current = run.then((answer) => {
      saving.current = null;
      if (answer.ok) {
        version.current = answer.data.version;
        onSaved(answer.data);
        setState({ kind: "saved", at: answer.data.updatedAt });
        return true;
      }
      dirty.current = true;
      if (
        answer.problem.code === "PRECONDITION_FAILED" ||
        answer.problem.code === "VERSION_CONFLICT"
      ) {
        setState({ kind: "conflict" });
      } else setState({ kind: "error", message: problemText(answer.problem) });
      return false;
    });
    return saving.current;
  }

  useEffect(() => registerFlush(save), []);
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (name: keyof Form) => (event: Event) => {
    const next = { ...formRef.current, [name]: inputValue(event) };
    formRef.current = next;
    setForm(next);
    dirty.current = true;
    if (state.kind === "conflict") return; // nothing is saved until the applicant chooses
    clearTimeout(timer.current);
    timer.current = setTimeout(save, AUTOSAVE_MS);
  };

  /** The conflict, settled: load the newer version, then either keep it or put mine on top. */
  async function resolve(keepMine: boolean) {
    const latest = await admissions.application(application.id);
    if (!latest.ok) return setState({ kind: "error", message: problemText(latest.problem) });
    version.current = latest.data.version;
    onSaved(latest.data);
    if (keepMine) {
      dirty.current = true;
      await save();
    } else {
      dirty.current = false;
      formRef.current = formOf(latest.data);
      setForm(formRef.current);
      setState({ kind: "saved", at: latest.data.updatedAt });
    }
  }

  return (
    <div>
      <Field
        id="personal-statement"
        label={t("application.personalStatement")}
        rows={10}
        maxLength={20000}
        value={form.personalStatement}
        onInput={change("personalStatement")}
        data-testid="personal-statement"
      />
      <Field
        id="prior-qualification"
        label={t("application.priorQualification")}
        maxLength={200}
        value={form.priorQualification}
        onInput={change("priorQualification")}
        data-testid="prior-qualification"
      />
      <Field
        id="prior-institution"
        label={t("application.priorInstitution")}
        maxLength={200}
        value={form.priorInstitution}
        onInput={change("priorInstitution")}
      />
      <Field
        id="graduation-year"
        label={t("application.graduationYear")}
        inputMode="numeric"
        maxLength={4}
        value={form.graduationYear}
        onInput={change("graduationYear")}
      />
      <p class="save-state" role="status" data-testid="save-state">
        {state.kind === "saving" && t("application.saving")}
        {state.kind === "saved" && t("application.saved", { when: formatDate(state.at) })}
        {state.kind === "error" && state.message}
      </p>
      {state.kind === "conflict" && (
        <div class="problem" role="alert" data-testid="save-conflict">
          <p>{t("application.conflict")}</p>
          <button type="button" onClick={() => resolve(true)} data-testid="conflict-keep-mine">
            {t("application.conflictKeepMine")}
          </button>{" "}
          <button
            type="button"
            class="secondary"
            onClick={() => resolve(false)}
            data-testid="conflict-load-theirs"
          >
            {t("application.conflictLoadTheirs")}
          </button>
        </div>
      )}
    </div>
  );
}
