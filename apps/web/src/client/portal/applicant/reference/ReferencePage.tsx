import type { Problem } from "@platform/contracts/problem";
import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import { upload } from "../../api/client.ts";
import type { RefereeInvitation } from "../../api/types.ts";
import { formatDay, t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { takeToken } from "../../ui/token.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";

/** Problems after which the link is of no more use: the form goes away. */
const DEAD_LINK = new Set(["INVALID_REFERENCE_LINK", "REFERENCES_CLOSED"]);

/**
 * The referee's page, opened from the emailed link (no account). It asks the API what the link
 * is for (which does not use it), then takes the reference as text or as a PDF; sending uses
 * the link. The token left the address bar on arrival and only travels in request bodies.
 */
export default function ReferencePage() {
  const [token] = useState(takeToken);
  const session = useSession();
  const [invitation, setInvitation] = useState<RefereeInvitation | null>(null);
  const [opening, setOpening] = useState<Problem | null>(null);
  const [how, setHow] = useState<"text" | "file">("text");
  const [text, setText] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const { busy, problem, done, send } = useSend<null>();

  useEffect(() => {
    if (!token) return;
    admissions.openReference(token).then((answer) => {
      if (answer.ok) setInvitation(answer.data);
      else setOpening(answer.problem);
    });
  }, []);

  const submit = (event: Event) => {
    event.preventDefault();
    if (!token) return;
    if (how === "text") {
      send(() => admissions.sendReferenceText(token, text));
      return;
    }
    if (!file) return;
    const form = new FormData();
    form.set("token", token);
    form.set("file", file);
    send(() => upload<null>("/references/link/file/", form, () => {}));
  };

  const refused = opening ?? (problem && DEAD_LINK.has(problem.code) ? problem : null);
  return (
    <Layout session={session}>
      {!token && <p role="alert">{t("link.missing")}</p>}
      {refused && <ProblemNotice problem={refused} testId="reference-problem" />}
      {token && !invitation && !refused && <p aria-busy="true">{t("common.loading")}</p>}
      {done && (
        <p role="status" data-testid="reference-done">
          {t("reference.done")}
        </p>
      )}
      {invitation && !done && !refused && (
        <form onSubmit={submit} class="form" noValidate data-testid="reference-form">
          <p data-testid="reference-intro">
            {t("reference.intro", {
              referee: invitation.refereeName,
              applicant: invitation.applicantName,
              program: invitation.programName,
              term: invitation.intakeTerm,
            })}
          </p>
          <p>{t("reference.private")}</p>
          <p>{t("reference.expires", { date: formatDay(invitation.expiresAt) })}</p>
          {problem && (
            <ProblemNotice
              problem={problem}
              fields={[{ name: "text", id: "reference-text", label: t("reference.text") }]}
            />
          )}
          <fieldset>
            <label>
              <input
                type="radio"
                name="reference-how"
                checked={how === "text"}
                onChange={() => setHow("text")}
                data-testid="reference-how-text"
              />{" "}
              {t("reference.howText")}
            </label>{" "}
            <label>
              <input
                type="radio"
                name="reference-how"
                checked={how === "file"}
                onChange={() => setHow("file")}
                data-testid="reference-how-file"
              />{" "}
              {t("reference.howFile")}
            </label>
          </fieldset>
          {how === "text" ? (
            <Field
              id="reference-text"
              label={t("reference.text")}
              hint={t("reference.textHint", {
                min: invitation.textMinLength,
                max: invitation.textMaxLength,
              })}
              rows={14}
              maxLength={invitation.textMaxLength}
              required
              value={text}
              error={fieldError(problem, "text")}
              onInput={(e) => setText(inputValue(e))}
              data-testid="reference-text"
            />
          ) : (
            <div class="field">
              <label for="reference-file">{t("reference.file")}</label>
              <p class="hint" id="reference-file-hint">
                {t("reference.fileHint", {
                  mb: Math.floor(invitation.maxFileBytes / (1024 * 1024)),
                })}
              </p>
              <input
                id="reference-file"
                type="file"
                accept="application/pdf"
                aria-describedby="reference-file-hint"
                onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
                data-testid="reference-file"
              />
            </div>
          )}
          <button type="submit" disabled={busy} data-testid="reference-submit">
            {t("reference.submit")}
          </button>
        </form>
      )}
    </Layout>
  );
}
