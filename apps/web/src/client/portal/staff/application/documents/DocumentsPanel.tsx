import { useState } from "preact/hooks";
import type { Document } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDay, t } from "../../../i18n/use.ts";
import { FileViewer } from "../../ui/FileViewer.tsx";
import { formatSize } from "../../ui/format.ts";

/** What a document is called on the page: its type, never its file or blob name. */
export const documentTitle = (doc: Document) => t(`document.${doc.type}` as MessageKey);

/**
 * The application's documents beside the rubric: a list by type, each a disclosure button
 * (its state in aria-expanded) that opens the document in place, its bytes fetched then and
 * not on arrival; one at a time, so the page never holds a stack of viewers. Closing it, or
 * opening another, lets its blob: URL go.
 */
export function DocumentsPanel({ documents }: { documents: Document[] | null }) {
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <section
      class="panel documents-panel"
      aria-labelledby="staff-documents"
      data-testid="documents-panel"
    >
      <h2 id="staff-documents">{t("staff.documents.title")}</h2>
      {documents === null && <p aria-busy="true">{t("common.loading")}</p>}
      {documents?.length === 0 && <p>{t("staff.documents.none")}</p>}
      {documents && documents.length > 0 && (
        <ul class="document-list" data-testid="documents">
          {documents.map((doc) => {
            const open = openId === doc.id;
            const title = documentTitle(doc);
            return (
              <li
                key={doc.id}
                data-testid="document"
                data-media-type={doc.mediaType}
                data-open={open ? "true" : "false"}
              >
                <div class="document-row">
                  <button
                    type="button"
                    class="secondary disclosure"
                    aria-expanded={open}
                    aria-controls={`viewer-${doc.id}`}
                    onClick={() => setOpenId(open ? null : doc.id)}
                    data-testid="document-open"
                  >
                    {title}
                  </button>
                  <span class="muted">
                    {t(`decide.media.${doc.mediaType.split("/")[1]}` as MessageKey)} ·{" "}
                    {formatSize(doc.size)} ·{" "}
                    {t("decide.documents.uploaded", { date: formatDay(doc.uploadedAt) })}
                  </span>
                </div>
                <div id={`viewer-${doc.id}`}>
                  {open && (
                    <FileViewer
                      file={{
                        title,
                        url: doc.downloadUrl,
                        mediaType: doc.mediaType,
                        fileName: doc.fileName,
                      }}
                    />
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
