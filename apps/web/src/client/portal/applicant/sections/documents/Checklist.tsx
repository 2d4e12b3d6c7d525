import type { Checklist as ChecklistOf, Document } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDate, t } from "../../../i18n/use.ts";

/**
 * What the programme asks for: each type with its state and the files on file for it, each
 * with "remove" (its name in the button, so a screen reader hears which).
 */
export function Checklist({
  items,
  documents,
  onRemove,
}: {
  items: ChecklistOf["items"];
  documents: Document[];
  onRemove?: (document: Document) => void;
}) {
  return (
    <ul class="checklist" data-testid="checklist">
      {items.map((item) => {
        const files = documents.filter((d) => d.type === item.type);
        return (
          <li key={item.type} data-status={item.status}>
            <p>
              <strong>{t(`document.${item.type}` as MessageKey)}</strong>{" "}
              <span class={`badge doc-${item.status}`}>
                {t(`documentStatus.${item.status}` as MessageKey)}
              </span>
            </p>
            {files.length === 0 && <p class="muted">{t("documents.notUploaded")}</p>}
            {files.map((file) => (
              <div class="document-row" key={file.id} data-testid="document">
                <span>
                  {t("documents.uploadedOn", {
                    name: file.fileName,
                    when: formatDate(file.uploadedAt),
                  })}
                </span>
                {file.reviewNote && (
                  <span class="muted">{t("documents.reviewNote", { note: file.reviewNote })}</span>
                )}
                {onRemove && (
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => onRemove(file)}
                    aria-label={t("documents.removeNamed", { name: file.fileName })}
                    data-testid="document-remove"
                  >
                    {t("documents.remove")}
                  </button>
                )}
              </div>
            ))}
          </li>
        );
      })}
    </ul>
  );
}
