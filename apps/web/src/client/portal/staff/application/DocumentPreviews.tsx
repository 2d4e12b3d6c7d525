import { useEffect, useState } from "preact/hooks";
import type { Document } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { previewUrl } from "../api.ts";

/**
 * Each document shown inline: images as <img>, PDFs in an <iframe> (Chromium's own viewer), both
 * from blob: URLs of bytes fetched with the session (see previewUrl). The page's CSP allows
 * `blob:` for images and frames on this page only; frame-ancestors 'none' still forbids anyone
 * framing the page itself. The URLs are revoked when the page lets go of them.
 */
export function DocumentPreviews({ documents }: { documents: Document[] }) {
  const [urls, setUrls] = useState<Record<string, string | null>>({});
  useEffect(() => {
    let alive = true;
    const made: string[] = [];
    Promise.all(documents.map(async (d) => [d.id, await previewUrl(d)] as const)).then((pairs) => {
      for (const [, url] of pairs) if (url) made.push(url);
      if (alive) setUrls(Object.fromEntries(pairs));
      else for (const url of made) URL.revokeObjectURL(url);
    });
    return () => {
      alive = false;
      for (const url of made) URL.revokeObjectURL(url);
    };
  }, [documents]);
  if (documents.length === 0) return <p>{t("staff.documents.none")}</p>;
  return (
    <ul class="previews" data-testid="documents">
      {documents.map((d) => {
        const url = urls[d.id];
        const label = `${t(`document.${d.type}` as MessageKey)} — ${d.fileName}`;
        return (
          <li key={d.id} class="panel" data-testid="document" data-media-type={d.mediaType}>
            <h3>{label}</h3>
            {url === undefined && <p aria-busy="true">{t("common.loading")}</p>}
            {url === null && <p>{t("staff.documents.noPreview")}</p>}
            {url && d.mediaType === "application/pdf" && (
              <iframe src={url} title={label} class="pdf-preview" data-testid="document-preview" />
            )}
            {url && d.mediaType !== "application/pdf" && (
              <img src={url} alt={label} class="image-preview" data-testid="document-preview" />
            )}
            {url && (
              <p>
                <a href={url} download={d.fileName}>
                  {t("staff.documents.download", { name: d.fileName })}
                </a>
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
