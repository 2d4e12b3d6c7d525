import { EXTENSIONS, type MediaType } from "./file-type.ts";

const MAX_NAME_LENGTH = 120;

/**
 * The client's filename as harmless metadata: the last path segment only (so `../../etc/x`
 * is `x`), no control or bidirectional-override characters, no characters Windows forbids,
 * at most 120 characters, and an extension that matches what the bytes are (a PNG called
 * `page.html` is kept as `page.html.png`, so saving it never makes an HTML file). It is never
 * used as a storage path: files are stored under random keys.
 */
export function sanitizeFilename(raw: string | undefined, mediaType: MediaType): string {
  const lastSegment = (raw ?? "").split(/[/\\]/).pop() ?? "";
  let name = lastSegment
    .normalize("NFC")
    // C0/C1 controls, bidi overrides and isolates, zero-width characters, Windows-reserved.
    .replace(/[\p{Cc}\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff<>:"|?*]/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  const allowed = EXTENSIONS[mediaType];
  const extension = allowed[0] ?? "";
  const lower = name.toLowerCase();
  if (!allowed.some((ext) => lower.endsWith(ext) && lower.length > ext.length)) {
    name = name ? `${name}${extension}` : `document${extension}`;
  }
  if ([...name].length > MAX_NAME_LENGTH) {
    const tail = name.slice(name.lastIndexOf("."));
    name =
      [...name]
        .slice(0, MAX_NAME_LENGTH - tail.length)
        .join("")
        .trimEnd() + tail;
  }
  return name;
}

/**
 * `attachment` (never rendered inline), with an ASCII fallback and the exact name in RFC 5987
 * `filename*`, so no quote, semicolon or newline in a name can break out of the header.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\;%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The name shown instead of the client's under blind review: client file names often carry
 * the applicant's name ("ada-lovelace-transcript.pdf"). The type and the id's first characters
 * keep several documents of one type apart.
 */
export const blindFilename = (row: { id: string; type: string; media_type: MediaType }) =>
  `${row.type}-${row.id.slice(-8)}${EXTENSIONS[row.media_type][0] ?? ""}`;
