import { unzlibSync } from "fflate";

/*
 * The text a PDF carries, for tests that look for what must not be in it. pdf-lib (what the
 * signed letters are written with) deflates every content stream and packs the document's
 * info (its title) into compressed object streams, and it writes each line of text as a hex
 * string of WinAnsi codes; the metadata strings are UTF-16BE behind a byte-order mark. So a
 * search of the raw bytes finds nothing, whatever the letter says: every FlateDecode stream
 * is inflated and every string in it decoded.
 */

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** The bytes of a PDF string's contents: UTF-16BE when they open with FE FF, else WinAnsi. */
function decodeStringBytes(bytes: number[]): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    let out = "";
    for (let i = 2; i + 1 < bytes.length; i += 2) {
      out += String.fromCharCode(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
    }
    return out;
  }
  // WinAnsi agrees with Latin-1 on every character a name or an address is written with.
  return String.fromCharCode(...bytes);
}

const hexBytes = (hex: string) =>
  (hex.replace(/\s+/g, "").match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16));

const ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };

/** The literal strings `( … )` of a chunk of PDF syntax, escapes and nesting undone. */
function literalStrings(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "(") continue;
    const bytes: number[] = [];
    let depth = 1;
    let j = i + 1;
    for (; j < text.length && depth > 0; j++) {
      const c = text[j] ?? "";
      if (c === "\\") {
        const next = text[++j] ?? "";
        const octal = /^[0-7]{1,3}/.exec(text.slice(j, j + 3))?.[0];
        if (octal) {
          bytes.push(Number.parseInt(octal, 8));
          j += octal.length - 1;
        } else if (next in ESCAPES) bytes.push(ESCAPES[next] ?? 0);
        else if (next !== "\n" && next !== "\r") bytes.push(next.charCodeAt(0));
        continue;
      }
      if (c === "(") depth++;
      if (c === ")" && --depth === 0) break;
      bytes.push(c.charCodeAt(0));
    }
    found.push(decodeStringBytes(bytes));
    i = j;
  }
  return found;
}

/** The hex strings `< … >` (not dictionaries `<< … >>`) of a chunk of PDF syntax. */
const hexStrings = (text: string) =>
  [...text.matchAll(/(?<!<)<([0-9A-Fa-f\s]+)>(?!>)/g)].map((m) =>
    decodeStringBytes(hexBytes(m[1] ?? "")),
  );

/** Every FlateDecode stream of the file, inflated (one that fails to inflate is left out). */
function inflatedStreams(pdf: Uint8Array): string[] {
  const text = latin1(pdf);
  const out: string[] = [];
  for (const match of text.matchAll(/\/FlateDecode[\s\S]*?stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) continue;
    try {
      out.push(latin1(unzlibSync(pdf.subarray(start, end))));
    } catch {
      // A stream that is not zlib data (or was cut short) holds no text this search needs.
    }
  }
  return out;
}

/**
 * What a PDF says, as one string: the raw file, every inflated stream, and every string in
 * either, decoded; the text of one line stays together, as it was drawn.
 */
export function pdfText(pdf: Uint8Array): string {
  const chunks = [latin1(pdf), ...inflatedStreams(pdf)];
  return chunks
    .flatMap((chunk) => [chunk, ...literalStrings(chunk), ...hexStrings(chunk)])
    .join("\n");
}
