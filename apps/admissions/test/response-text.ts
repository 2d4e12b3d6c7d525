import { unzipSync } from "fflate";
import { pdfText } from "./pdf-text.ts";

/*
 * Everything a response tells its reader, as one string to search: the headers (a
 * Content-Disposition names a file) and the body decoded as the reader's software decodes it.
 * JSON is parsed so an escaped character (\u00e9) reads as itself; a PDF's compressed text is
 * inflated (pdf-text.ts); an archive is opened entry by entry.
 */

/** The string values of a JSON document, and its text. */
function jsonText(text: string): string {
  const strings: string[] = [text];
  const walk = (value: unknown): void => {
    if (typeof value === "string") strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  try {
    walk(JSON.parse(text));
  } catch {
    // Not JSON after all: its text is what there is.
  }
  return strings.join("\n");
}

/** A file's bytes as text, by what the file is (its name or type). */
function fileText(bytes: Uint8Array, kind: string): string {
  if (/pdf/i.test(kind) || Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-") {
    return pdfText(bytes);
  }
  if (/zip/i.test(kind)) {
    return Object.entries(unzipSync(bytes))
      .map(([name, entry]) => `${name}\n${fileText(entry, name)}`)
      .join("\n");
  }
  const text = new TextDecoder().decode(bytes);
  return /json/i.test(kind) ? jsonText(text) : text;
}

/** A header's value, and its percent-decoded form (RFC 8187 `filename*=UTF-8''…`). */
function headerText(value: string): string {
  try {
    return `${value}\n${decodeURIComponent(value)}`;
  } catch {
    return value;
  }
}

export async function responseText(res: Response): Promise<string> {
  const headers = [...res.headers]
    .map(([name, value]) => `${name}: ${headerText(value)}`)
    .join("\n");
  const bytes = new Uint8Array(await res.arrayBuffer());
  return `${headers}\n${fileText(bytes, res.headers.get("content-type") ?? "")}`;
}
