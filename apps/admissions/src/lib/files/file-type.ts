/**
 * What a file is, decided by its bytes and never by the name or Content-Type the client sent.
 * Only the first and last SNIFF_BYTES are kept while the file streams to disk, so this works on
 * a 10 MB upload without holding it.
 */
export const MEDIA_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const SNIFF_BYTES = 1024;

export const EXTENSIONS: Record<MediaType, readonly string[]> = {
  "application/pdf": [".pdf"],
  "image/jpeg": [".jpg", ".jpeg"],
  "image/png": [".png"],
};

export type Verdict =
  | { ok: true; mediaType: MediaType }
  | { ok: false; reason: "empty" | "unknown" | "truncated" | "polyglot"; detail: string };

const bytes = (text: string) => new TextEncoder().encode(text);
const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const PNG_IHDR = Uint8Array.of(0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52);
const PNG_IEND = Uint8Array.of(0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82);
const JPEG_SOI = Uint8Array.of(0xff, 0xd8, 0xff);
const JPEG_EOI = Uint8Array.of(0xff, 0xd9);
const PDF_HEADER = /^%PDF-[12]\.\d/;
const PDF_EOF = bytes("%%EOF");
const ZIP_END = Uint8Array.of(0x50, 0x4b, 0x05, 0x06);
const PDF_MAGIC = bytes("%PDF-");

/**
 * Markup a browser or interpreter would act on. A real PDF, JPEG or PNG has none of it in its
 * first kilobyte; a polyglot (an image that is also a web page, say) usually does.
 */
const ACTIVE_MARKUP = /<(?:!doctype\s+html|html|head|body|script|iframe|svg|object|embed|\?php)\b/i;

const latin1 = new TextDecoder("latin1");

function startsWith(data: Uint8Array, prefix: Uint8Array, at = 0): boolean {
  if (data.length < at + prefix.length) return false;
  return prefix.every((byte, i) => data[at + i] === byte);
}

function lastIndexOf(data: Uint8Array, needle: Uint8Array): number {
  for (let i = data.length - needle.length; i >= 0; i--) {
    if (startsWith(data, needle, i)) return i;
  }
  return -1;
}

/** Trailing NULs and whitespace: padding some writers add, harmless after an end marker. */
function trimPadding(data: Uint8Array): Uint8Array {
  let end = data.length;
  while (end > 0 && [0x00, 0x09, 0x0a, 0x0d, 0x20].includes(data[end - 1] ?? -1)) end--;
  return data.subarray(0, end);
}

const reject = (reason: "empty" | "unknown" | "truncated" | "polyglot", detail: string) =>
  ({ ok: false, reason, detail }) as const;

/**
 * The file's end must be its format's end marker, with nothing after it: a missing marker is a
 * truncated file, bytes after it are another file appended (a polyglot).
 */
function checkEnd(tail: Uint8Array, marker: Uint8Array, name: string): Verdict | null {
  const trimmed = name === "PNG" ? tail : trimPadding(tail);
  const at = lastIndexOf(trimmed, marker);
  if (at === -1) return reject("truncated", `The ${name} file is incomplete (no end marker)`);
  if (at + marker.length !== trimmed.length) {
    return reject("polyglot", `The ${name} file has data after its end; upload the file alone`);
  }
  return null;
}

export function classify(head: Uint8Array, tail: Uint8Array, size: number): Verdict {
  if (size === 0) return reject("empty", "The file is empty");
  let mediaType: MediaType;
  let end: Verdict | null;
  if (startsWith(head, PNG_SIGNATURE)) {
    mediaType = "image/png";
    if (!startsWith(head, PNG_IHDR, 8)) return reject("truncated", "The PNG file has no header");
    end = checkEnd(tail, PNG_IEND, "PNG");
  } else if (startsWith(head, JPEG_SOI)) {
    mediaType = "image/jpeg";
    end = size < 4 ? reject("truncated", "The JPEG file is incomplete") : null;
    end ??= checkEnd(tail, JPEG_EOI, "JPEG");
  } else if (PDF_HEADER.test(latin1.decode(head.subarray(0, 8)))) {
    mediaType = "application/pdf";
    end = checkEnd(tail, PDF_EOF, "PDF");
  } else {
    return reject("unknown", "Only PDF, JPEG and PNG files are accepted");
  }
  if (end) return end;
  const other = embeddedFormat(head, tail, mediaType);
  if (other)
    return reject("polyglot", `The file is also ${other}; upload a plain ${label(mediaType)}`);
  return { ok: true, mediaType };
}

/** Another format hiding in the same bytes: PDF readers look for %PDF- anywhere in the first KB. */
function embeddedFormat(head: Uint8Array, tail: Uint8Array, mediaType: MediaType): string | null {
  if (mediaType !== "application/pdf" && lastIndexOf(head, PDF_MAGIC) !== -1) return "a PDF";
  if (ACTIVE_MARKUP.test(latin1.decode(head))) return "HTML or script";
  if (lastIndexOf(tail, ZIP_END) !== -1) return "a ZIP archive";
  return null;
}

const label = (mediaType: MediaType) =>
  mediaType === "application/pdf" ? "PDF" : mediaType === "image/png" ? "PNG" : "JPEG";
