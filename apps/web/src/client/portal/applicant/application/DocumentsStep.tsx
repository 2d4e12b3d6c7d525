import { useState } from "preact/hooks";
import { upload } from "../../api/client.ts";
import type { Checklist, Document } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { problemText } from "../../ui/ProblemNotice.tsx";

/** The checklist of required types, and an upload (on choosing the file) with its progress. */
export function DocumentsStep({
  applicationId,
  checklist,
  documents,
  editable,
  onUploaded,
}: {
  applicationId: string;
  checklist: Checklist;
  documents: Document[];
  editable: boolean;
  onUploaded: () => void;
}) {
  const firstMissing = checklist.items.find((item) => item.status === "missing")?.type;
  const [type, setType] = useState<string>(firstMissing ?? checklist.items[0]?.type ?? "");
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const send = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.set("type", type);
    form.set("file", file);
    setMessage(null);
    setProgress(0);
    const answer = await upload<Document>(
      `/applications/${applicationId}/documents/`,
      form,
      setProgress,
    );
    setProgress(null);
    input.value = "";
    if (answer.ok) {
      setMessage({ ok: true, text: t("documents.uploaded", { name: answer.data.fileName }) });
      onUploaded();
    } else setMessage({ ok: false, text: problemText(answer.problem) });
  };

  return (
    <div>
      <ul class="checklist" data-testid="checklist">
        {checklist.items.map((item) => (
          <li key={item.type} data-status={item.status}>
            <span>{t(`document.${item.type}` as MessageKey)}</span>{" "}
            <span class={`badge doc-${item.status}`}>
              {t(`documentStatus.${item.status}` as MessageKey)}
            </span>
          </li>
        ))}
      </ul>
      {documents.length > 0 && (
        <ul class="files">
          {documents.map((doc) => (
            <li key={doc.id}>
              <a href={doc.downloadUrl} download>
                {doc.fileName}
              </a>{" "}
              ({t(`document.${doc.type}` as MessageKey)}, {Math.ceil(doc.size / 1024)} KB)
            </li>
          ))}
        </ul>
      )}
      {editable && checklist.items.length > 0 && (
        <div class="upload">
          <div class="field">
            <label for="document-type">{t("documents.type")}</label>
            <select
              id="document-type"
              value={type}
              onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value)}
              data-testid="document-type"
            >
              {checklist.items.map((item) => (
                <option key={item.type} value={item.type}>
                  {t(`document.${item.type}` as MessageKey)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="document-file">{t("documents.file")}</label>
            <p class="hint" id="document-file-hint">
              {t("documents.hint")}
            </p>
            <input
              id="document-file"
              type="file"
              accept="application/pdf,image/png,image/jpeg"
              aria-describedby="document-file-hint"
              disabled={progress !== null}
              onChange={send}
              data-testid="document-upload"
            />
          </div>
          {progress !== null && (
            <progress
              max={1}
              value={progress}
              aria-label={t("documents.progress")}
              data-testid="upload-progress"
            />
          )}
        </div>
      )}
      <p
        role="status"
        class={message?.ok === false ? "field-error" : ""}
        data-testid="upload-status"
      >
        {message?.text}
      </p>
    </div>
  );
}
