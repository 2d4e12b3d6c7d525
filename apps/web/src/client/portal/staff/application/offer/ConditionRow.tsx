import type {
  Condition,
  ConditionList,
  ConditionUpdate,
  Document,
} from "@platform/admissions/models";
import { useState } from "preact/hooks";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDate, formatDay, t } from "../../../i18n/use.ts";
import { inputValue, useSend } from "../../../ui/useForm.ts";
import { FileViewer } from "../../ui/FileViewer.tsx";
import { type FieldRule, FormProblem } from "../../ui/FormProblem.tsx";
import { documentTitle } from "../documents/DocumentsPanel.tsx";
import { offerApi } from "./api.ts";

const OUTCOMES = ["met", "waived", "not_met", "pending"] as const;

/** A document as the evidence list names it: its type and when it came. */
const evidenceLabel = (doc: Document) =>
  `${documentTitle(doc)} (${t("decide.documents.uploaded", { date: formatDay(doc.uploadedAt) })})`;

/**
 * One condition of the offer: what it asks, by when, where it stands, its evidence viewed in
 * place; for an admin while the conditions are open, the form that settles it (met, waived,
 * not met, or back to pending) with the evidence chosen from the application's documents and
 * shown before saving. "Not met" ends the offer at once, so it asks for a second press.
 */
export function ConditionRow({
  applicationId,
  condition,
  documents,
  open,
  onSettled,
}: {
  applicationId: string;
  condition: Condition;
  documents: Document[];
  /** Conditions may still be settled (an admin, the offer standing and not yet unconditional). */
  open: boolean;
  onSettled: (next: ConditionList) => void;
}) {
  const [status, setStatus] = useState<ConditionUpdate["status"]>(
    condition.status === "pending" ? "met" : condition.status,
  );
  const [evidence, setEvidence] = useState(condition.evidenceDocumentId ?? "");
  const [note, setNote] = useState(condition.note ?? "");
  const [viewing, setViewing] = useState(false);
  const [asked, setAsked] = useState(false);
  // A settled condition can be changed while the conditions are open, on request.
  const [editing, setEditing] = useState(condition.status === "pending");
  const { busy, problem, send } = useSend<ConditionList>();
  const id = `condition-${condition.id}`;
  const rules: FieldRule[] = [
    {
      path: "/body/evidenceDocumentId",
      id: `${id}-evidence`,
      message: t("decide.condition.evidenceError"),
    },
    { path: "/body/note", id: `${id}-note`, message: t("decide.condition.noteError") },
  ];
  const shownEvidence = documents.find(
    (d) => d.id === (open && editing ? evidence : condition.evidenceDocumentId),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    if (status === "not_met" && !asked) {
      setAsked(true);
      return;
    }
    const body: ConditionUpdate = { status };
    if (note.trim()) body.note = note.trim();
    if (evidence) body.evidenceDocumentId = evidence;
    const settled = await send(() => offerApi.settle(applicationId, condition.id, body));
    setAsked(false);
    if (settled) onSettled(settled.data);
  };
  return (
    <li class="panel" data-testid="condition-row" data-status={condition.status}>
      <p>
        <strong>{condition.description}</strong>{" "}
        <span class={`badge condition-${condition.status}`}>
          {t(`decide.condition.status.${condition.status}` as MessageKey)}
        </span>
      </p>
      <p class="muted">
        {t("decide.condition.due", { date: formatDay(condition.dueAt) })}
        {condition.verifiedAt &&
          ` · ${t("decide.condition.settledAt", { date: formatDate(condition.verifiedAt) })}`}
      </p>
      {condition.note && <p class="statement">{condition.note}</p>}
      {shownEvidence && (
        <div class="evidence">
          <button
            type="button"
            class="secondary disclosure"
            aria-expanded={viewing}
            aria-controls={`${id}-viewer`}
            onClick={() => setViewing(!viewing)}
            data-testid="condition-evidence"
          >
            {t(viewing ? "decide.condition.hideEvidence" : "decide.condition.viewEvidence", {
              title: documentTitle(shownEvidence),
            })}
          </button>
          <div id={`${id}-viewer`}>
            {viewing && (
              <FileViewer
                file={{
                  title: documentTitle(shownEvidence),
                  url: shownEvidence.downloadUrl,
                  mediaType: shownEvidence.mediaType,
                  fileName: shownEvidence.fileName,
                }}
              />
            )}
          </div>
        </div>
      )}
      {open && !editing && (
        <button type="button" class="link-button" onClick={() => setEditing(true)}>
          {t("decide.condition.change")}
        </button>
      )}
      {open && editing && (
        <form class="form" onSubmit={submit} noValidate data-testid="condition-form">
          <FormProblem problem={problem} rules={rules} testId="condition-problem" />
          <fieldset>
            <legend>{t("decide.condition.outcome")}</legend>
            {OUTCOMES.filter((o) => o !== "pending" || condition.status !== "pending").map((o) => (
              <label key={o} class="choice">
                <input
                  type="radio"
                  name={`${id}-status`}
                  checked={status === o}
                  onChange={() => {
                    setStatus(o);
                    setAsked(false);
                  }}
                  data-testid={`condition-${o}`}
                />{" "}
                {t(`decide.condition.set.${o}` as MessageKey)}
              </label>
            ))}
          </fieldset>
          <div class="field">
            <label for={`${id}-evidence`}>{t("decide.condition.evidence")}</label>
            <select
              id={`${id}-evidence`}
              value={evidence}
              onChange={(e) => {
                setEvidence(inputValue(e));
                setViewing(false);
              }}
              data-testid="condition-evidence-select"
            >
              <option value="">{t("decide.condition.noEvidence")}</option>
              {documents.map((doc) => (
                <option key={doc.id} value={doc.id}>
                  {evidenceLabel(doc)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for={`${id}-note`}>{t("decide.condition.note")}</label>
            <textarea
              id={`${id}-note`}
              rows={2}
              maxLength={2_000}
              value={note}
              onInput={(e) => setNote(inputValue(e))}
            />
          </div>
          {asked && (
            <p class="warning" role="alert" data-testid="condition-not-met-confirm">
              {t("decide.condition.notMetWarning")}
            </p>
          )}
          <button
            type="submit"
            class={status === "not_met" ? "danger" : undefined}
            disabled={busy}
            data-testid="condition-settle"
          >
            {t(asked ? "decide.condition.notMetConfirm" : "decide.condition.save")}
          </button>
        </form>
      )}
    </li>
  );
}
