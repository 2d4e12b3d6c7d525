import { useState } from "preact/hooks";
import type { Document } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { t } from "../../../i18n/use.ts";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { takeFile, useUpload } from "../../../ui/useUpload.ts";

/**
 * The upload: the type first, then the file, sent as soon as it is chosen, with its progress.
 * A refused file (its kind, its size) is said in words beside the input.
 */
export function UploadForm({
  applicationId,
  types,
  firstMissing,
  onUploaded,
  onStart,
}: {
  applicationId: string;
  types: string[];
  firstMissing: string | undefined;
  onUploaded: (document: Document) => void;
  onStart: () => void;
}) {
  const [type, setType] = useState<string>(firstMissing ?? types[0] ?? "");
  const { progress, problem, send } = useUpload(applicationId);
  const choose = async (event: Event) => {
    const file = takeFile(event);
    if (!file) return;
    onStart();
    const document = await send(type, file);
    if (document) onUploaded(document);
  };
  return (
    <section class="upload" aria-labelledby="upload-heading">
      <h2 id="upload-heading">{t("documents.uploadHeading")}</h2>
      {problem && (
        <ProblemNotice
          problem={problem}
          fields={[{ name: "file", id: "document-file", label: t("documents.file") }]}
          testId="upload-problem"
        />
      )}
      <div class="field">
        <label for="document-type">{t("documents.type")}</label>
        <select
          id="document-type"
          value={type}
          onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value)}
          data-testid="document-type"
        >
          {types.map((value) => (
            <option key={value} value={value}>
              {t(`document.${value}` as MessageKey)}
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
          aria-invalid={problem ? true : undefined}
          disabled={progress !== null}
          onChange={choose}
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
    </section>
  );
}
