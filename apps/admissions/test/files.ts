import type { Document } from "../src/modules/documents/model.ts";
import type { Session, TestContext } from "./support.ts";

/** Test files built byte by byte, so each test says exactly what it sends. */
const text = (value: string) => new TextEncoder().encode(value);

export function concat(...parts: (Uint8Array | string)[]): Uint8Array {
  const chunks = parts.map((part) => (typeof part === "string" ? text(part) : part));
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND). */
export const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  ),
  (char) => char.charCodeAt(0),
);

/** A JPEG: SOI, a JFIF APP0 segment, some scan bytes, EOI. */
export const JPEG = concat(
  Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10),
  "JFIF\0",
  Uint8Array.of(1, 1, 0, 0, 1, 0, 1, 0, 0),
  new Uint8Array(200).fill(0x42),
  Uint8Array.of(0xff, 0xd9),
);

/**
 * A PDF of about `size` bytes: header, body, cross-reference trailer, %%EOF; a `mark` (in a
 * comment) makes its bytes its own.
 */
export function pdf(size = 600, mark = ""): Uint8Array {
  const head = "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n";
  const tail = "\ntrailer << /Root 1 0 R >>\nstartxref\n0\n%%EOF\n";
  const filler = `%${mark}`.padEnd(Math.max(1, size - head.length - tail.length), "x");
  return concat(head, filler, tail);
}

export const sha256 = (bytes: Uint8Array) =>
  new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

export type UploadFile = { bytes: Uint8Array; filename?: string; contentType?: string };

/** A multipart upload as a browser sends it (Bun writes the boundary and Content-Type). */
export function uploadRequest(
  path: string,
  fields: Record<string, string>,
  file: UploadFile | null,
  session?: Session,
): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) {
    const blob = new Blob([file.bytes], { type: file.contentType ?? "application/octet-stream" });
    form.append("file", blob, file.filename ?? "upload.bin");
  }
  const headers = new Headers();
  if (session) headers.set("authorization", `Bearer ${session.accessToken}`);
  return new Request(`http://localhost${path}`, { method: "POST", headers, body: form });
}

export const documentsPath = (applicationId: string) =>
  `/api/v1/applications/${applicationId}/documents/`;

export type DocumentJson = Document;

/** Uploads `file` as `type` to the application; returns the response. */
export const upload = (
  ctx: TestContext,
  session: Session,
  applicationId: string,
  type: string,
  file: UploadFile,
) => ctx.app.handle(uploadRequest(documentsPath(applicationId), { type }, file, session));

/** Uploads and expects 201. */
export async function uploaded(
  ctx: TestContext,
  session: Session,
  applicationId: string,
  type: string,
  file: UploadFile = { bytes: pdf(), filename: `${type}.pdf`, contentType: "application/pdf" },
): Promise<DocumentJson> {
  const res = await upload(ctx, session, applicationId, type, file);
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return (await res.json()) as DocumentJson;
}

/**
 * A raw multipart body streamed from a generator: `fileBytes` of filler after the headers of a
 * `file` part, optionally without a Content-Length. `pulled()` says how much the server read.
 */
export function streamingUpload(
  path: string,
  session: Session,
  opts: { fileBytes: number; declareLength?: number; chunk?: number },
) {
  const boundary = "----streamed-upload-boundary";
  const head = text(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ntranscript\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
  );
  const tail = text(`\n%%EOF\r\n--${boundary}--\r\n`);
  const chunkSize = opts.chunk ?? 256 * 1024;
  let sentFile = 0;
  let pulled = 0;
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk: Uint8Array;
      if (stage === 0) {
        chunk = head;
        stage = 1;
      } else if (sentFile < opts.fileBytes) {
        const n = Math.min(chunkSize, opts.fileBytes - sentFile);
        sentFile += n;
        chunk = new Uint8Array(n).fill(0x20);
      } else if (stage === 1) {
        chunk = tail;
        stage = 2;
      } else {
        controller.close();
        return;
      }
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const headers = new Headers({
    authorization: `Bearer ${session.accessToken}`,
    "content-type": `multipart/form-data; boundary=${boundary}`,
  });
  if (opts.declareLength !== undefined) headers.set("content-length", String(opts.declareLength));
  const request = new Request(`http://localhost${path}`, { method: "POST", headers, body });
  return { request, pulled: () => pulled };
}
