import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../../api/admissions.ts";
import type { ReferenceList } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { t } from "../../../i18n/use.ts";
import { Field } from "../../../ui/Field.tsx";
import { fieldError, ProblemNotice, problemText } from "../../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../../ui/useForm.ts";

const EMPTY = { name: "", email: "", relationship: "" };

/**
 * The applicant's referees: who was asked, and whether each reference arrived (never what it
 * says: the API gives the applicant statuses only). While the application is a draft or
 * submitted, a referee can be named (the API emails them their link) or, until they answer,
 * removed (their link dies).
 */
export function RefereesPanel({
  applicationId,
  editable,
}: {
  applicationId: string;
  editable: boolean;
}) {
  const [list, setList] = useState<ReferenceList | null>(null);
  const [form, setForm] = useState(EMPTY);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const adding = useSend<unknown>();

  const load = async () => {
    const answer = await admissions.referees(applicationId);
    if (answer.ok) setList(answer.data);
  };
  useEffect(() => {
    load();
  }, [applicationId]);

  const add = async (event: Event) => {
    event.preventDefault();
    setNotice(null);
    const body = { applicationId, ...form };
    if (await adding.send(() => admissions.addReferee(body))) {
      setNotice({ ok: true, text: t("referees.added", { name: form.name }) });
      setForm(EMPTY);
      await load();
    }
  };
  const remove = async (id: string, name: string) => {
    const answer = await admissions.removeReferee(id);
    setNotice(
      answer.ok
        ? { ok: true, text: t("referees.removed", { name }) }
        : { ok: false, text: problemText(answer.problem) },
    );
    await load();
  };
  if (!list) return null;
  const full = list.references.length >= list.maxReferees;
  const set = (key: keyof typeof EMPTY) => (event: Event) =>
    setForm({ ...form, [key]: inputValue(event) });

  return (
    <div data-testid="referees">
      <p>{t("referees.intro", { max: list.maxReferees })}</p>
      {notice && (
        <p role={notice.ok ? "status" : "alert"} data-testid="referees-notice">
          {notice.text}
        </p>
      )}
      {list.references.length === 0 ? (
        <p>{t("referees.none")}</p>
      ) : (
        <ul class="checklist" data-testid="referee-list">
          {list.references.map((r) => (
            <li key={r.id} data-status={r.status} data-testid="referee">
              <span>
                {r.refereeName} ({r.refereeEmail}) — {r.relationship}
              </span>{" "}
              <span class={`badge ${r.status === "received" ? "doc-verified" : "doc-missing"}`}>
                {t(`referees.status.${r.status}` as MessageKey)}
              </span>
              {editable && r.status !== "received" && (
                <button
                  type="button"
                  onClick={() => remove(r.id, r.refereeName)}
                  data-testid="remove-referee"
                >
                  {t("referees.remove", { name: r.refereeName })}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable && full && <p>{t("referees.full")}</p>}
      {editable && !full && (
        <form onSubmit={add} class="form" noValidate>
          {adding.problem && (
            <ProblemNotice
              problem={adding.problem}
              fields={[
                { name: "name", id: "referee-name", label: t("referees.name") },
                { name: "email", id: "referee-email", label: t("referees.email") },
                {
                  name: "relationship",
                  id: "referee-relationship",
                  label: t("referees.relationship"),
                },
              ]}
              testId="referee-problem"
            />
          )}
          <Field
            id="referee-name"
            data-testid="referee-name"
            label={t("referees.name")}
            autocomplete="off"
            value={form.name}
            error={fieldError(adding.problem, "name")}
            onInput={set("name")}
          />
          <Field
            id="referee-email"
            data-testid="referee-email"
            label={t("referees.email")}
            type="email"
            autocomplete="off"
            value={form.email}
            error={fieldError(adding.problem, "email")}
            onInput={set("email")}
          />
          <Field
            id="referee-relationship"
            data-testid="referee-relationship"
            label={t("referees.relationship")}
            hint={t("referees.relationshipHint")}
            maxLength={200}
            value={form.relationship}
            error={fieldError(adding.problem, "relationship")}
            onInput={set("relationship")}
          />
          <button type="submit" disabled={adding.busy} data-testid="add-referee">
            {t("referees.add")}
          </button>
        </form>
      )}
    </div>
  );
}
