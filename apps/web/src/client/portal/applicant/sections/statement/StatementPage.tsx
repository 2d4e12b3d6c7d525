import type { Application } from "../../../api/types.ts";
import { lang, t } from "../../../i18n/use.ts";
import { Field } from "../../../ui/Field.tsx";
import { fieldError, ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { inputValue } from "../../../ui/useForm.ts";
import { useApplication } from "../../application/useApplication.ts";
import { SaveStatus } from "../SaveStatus.tsx";
import { SaveAndReturn, SectionLayout } from "../SectionLayout.tsx";
import { useAutosave } from "../useAutosave.ts";

const MAX = 20_000;

function StatementForm({
  application,
  onSaved,
}: {
  application: Application;
  onSaved: (a: Application) => void;
}) {
  const { form, change, state, problem, save, resolve } = useAutosave(
    application,
    (a) => ({ personalStatement: a.personalStatement }),
    (f) => f,
    onSaved,
  );
  const label = t("section.statement");
  const count = new Intl.NumberFormat(lang).format(form.personalStatement.length);
  return (
    <form class="form wide" noValidate onSubmit={(e) => e.preventDefault()}>
      {problem && (
        <ProblemNotice
          problem={problem}
          fields={[{ name: "personalStatement", id: "personal-statement", label }]}
          testId="save-problem"
          focus={false}
        />
      )}
      <Field
        id="personal-statement"
        label={label}
        hint={`${t("statement.hint")} ${t("section.autosave")}`}
        rows={14}
        maxLength={MAX}
        value={form.personalStatement}
        error={fieldError(problem, "personalStatement")}
        onInput={(e) => change("personalStatement")(inputValue(e))}
        data-testid="personal-statement"
      />
      <p class="hint" data-testid="statement-count">
        {t("statement.count", { count })}
      </p>
      <SaveStatus state={state} resolve={resolve} />
      <SaveAndReturn id={application.id} save={save} />
    </form>
  );
}

/** The personal statement, on a page of its own, saved as typed. */
export default function StatementPage() {
  const state = useApplication();
  return (
    <SectionLayout state={state}>
      {(application) => <StatementForm application={application} onSaved={state.setApplication} />}
    </SectionLayout>
  );
}
