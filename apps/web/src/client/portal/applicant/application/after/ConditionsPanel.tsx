import { useState } from "preact/hooks";
import { admissions } from "../../../api/admissions.ts";
import type { Condition, ConditionList, Document } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDay, t } from "../../../i18n/use.ts";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { takeFile, useUpload } from "../../../ui/useUpload.ts";

/** A condition's state as the applicant reads it: evidence sent counts before the office rules. */
const stateOf = (c: Condition): MessageKey =>
  c.status === "pending"
    ? c.evidenceDocumentId
      ? "condition.state.sent"
      : "condition.state.pending"
    : (`condition.state.${c.status}` as MessageKey);

/**
 * The offer's conditions, each with its due date and state; while one is pending, a file chosen
 * for it is uploaded (as condition_evidence, with its progress) and named as its evidence.
 */
export function ConditionsPanel({
  list,
  documents,
  onChange,
}: {
  list: ConditionList;
  documents: Document[];
  onChange: () => void;
}) {
  const { progress, problem, send, setProblem } = useUpload(list.applicationId);
  const [sending, setSending] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const fileName = (id: string | null) => documents.find((d) => d.id === id)?.fileName;

  const evidence = (condition: Condition) => async (event: Event) => {
    const file = takeFile(event);
    if (!file) return;
    setSent(null);
    setSending(condition.id);
    const document = await send("condition_evidence", file);
    if (document) {
      const named = await admissions.nameEvidence(list.applicationId, condition.id, document.id);
      if (named.ok) setSent(t("condition.evidenceSent", { name: document.fileName }));
      else setProblem(named.problem);
      onChange();
    }
    setSending(null);
  };

  return (
    <section class="panel" aria-labelledby="conditions-heading" data-testid="conditions">
      <h2 id="conditions-heading">{t("conditions.heading")}</h2>
      <p>{list.unconditionalAt ? t("conditions.allMet") : t("conditions.intro")}</p>
      {problem && <ProblemNotice problem={problem} testId="condition-problem" />}
      <p role="status" data-testid="condition-status">
        {sent}
      </p>
      <ol class="conditions">
        {list.conditions.map((c) => (
          <li key={c.id} data-testid="condition" data-status={c.status}>
            <p>
              <strong>{c.description}</strong>
            </p>
            <p class="muted">
              {t("condition.due", { date: formatDay(c.dueAt) })} ·{" "}
              <span class="tag">{t(stateOf(c))}</span>
            </p>
            {c.evidenceDocumentId && <p>{fileName(c.evidenceDocumentId)}</p>}
            {c.note && <p>{t("condition.note", { note: c.note })}</p>}
            {c.status === "pending" && !list.unconditionalAt && (
              <div class="field">
                <label for={`evidence-${c.id}`}>{t("condition.evidenceLabel")}</label>
                <p class="hint" id={`evidence-${c.id}-hint`}>
                  {t("condition.evidenceHint")}
                </p>
                <input
                  id={`evidence-${c.id}`}
                  type="file"
                  accept="application/pdf,image/png,image/jpeg"
                  aria-describedby={`evidence-${c.id}-hint`}
                  disabled={sending !== null}
                  onChange={evidence(c)}
                  data-testid="condition-evidence"
                />
                {sending === c.id && progress !== null && (
                  <progress max={1} value={progress} aria-label={t("documents.progress")} />
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
