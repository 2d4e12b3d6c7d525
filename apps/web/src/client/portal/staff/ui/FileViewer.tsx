import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { PREVIEWABLE } from "../api.ts";

/** A file the API serves as an attachment (a document, a reference, a signed letter). */
export type ViewedFile = {
  /** What it is, in words (a document's type, "Reference from …", "Offer letter"). */
  title: string;
  /** The same-origin path of its bytes (`/api/v1/…/file/`). */
  url: string;
  /** The type the API declared; the Blob is given this one, never one sniffed from the bytes. */
  mediaType: string;
  /** The name it is saved under. */
  fileName: string;
};

type Loaded =
  | { state: "loading" }
  | { state: "failed"; status: number }
  | { state: "shown"; url: string; headers: Headers };

/**
 * One file, fetched only once it is asked for and shown in the page from a blob: URL (the
 * download routes answer `attachment` with a sandbox CSP, so they cannot be framed), revoked
 * when the viewer closes or shows another. PDFs go in an <iframe> (Chromium's viewer), images
 * in an <img>; both carry the file's title rather than the blob's id. `onHeaders` hands the
 * response's headers on (a signed letter's id and digest).
 */
export function FileViewer({
  file,
  onHeaders,
}: {
  file: ViewedFile;
  onHeaders?: (headers: Headers) => void;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  useEffect(() => {
    let alive = true;
    let made: string | null = null;
    setLoaded({ state: "loading" });
    fetch(file.url, { credentials: "same-origin" })
      .then(async (res) => {
        if (!res.ok) return alive && setLoaded({ state: "failed", status: res.status });
        const bytes = await res.arrayBuffer();
        if (!alive) return;
        made = URL.createObjectURL(new Blob([bytes], { type: file.mediaType }));
        onHeaders?.(res.headers);
        setLoaded({ state: "shown", url: made, headers: res.headers });
      })
      .catch(() => alive && setLoaded({ state: "failed", status: 0 }));
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [file.url]);
  const previewable = (PREVIEWABLE as readonly string[]).includes(file.mediaType);
  return (
    <figure class="file-viewer" data-testid="file-viewer">
      <figcaption>
        <strong>{file.title}</strong>
        <span class="muted"> · {file.fileName}</span>
      </figcaption>
      {loaded.state === "loading" && <p aria-busy="true">{t("common.loading")}</p>}
      {loaded.state === "failed" && (
        <p class="problem" role="alert">
          {t("decide.file.failed", { status: loaded.status })}
        </p>
      )}
      {loaded.state === "shown" && previewable && file.mediaType === "application/pdf" && (
        <iframe
          // The viewer's own toolbar would title the document by the blob's id (a UUID); our
          // caption titles it by what it is, and the link below downloads it.
          src={`${loaded.url}#toolbar=0&navpanes=0`}
          title={file.title}
          class="pdf-preview"
          data-testid="document-preview"
        />
      )}
      {loaded.state === "shown" && previewable && file.mediaType !== "application/pdf" && (
        <img
          src={loaded.url}
          alt={file.title}
          class="image-preview"
          data-testid="document-preview"
        />
      )}
      {loaded.state === "shown" && !previewable && <p>{t("staff.documents.noPreview")}</p>}
      {loaded.state === "shown" && (
        <p>
          <a href={loaded.url} download={file.fileName}>
            {t("staff.documents.download", { name: file.fileName })}
          </a>
        </p>
      )}
    </figure>
  );
}
