import { Busboy, type BusboyFileStream, type BusboyInstance } from "@fastify/busboy";
import { HttpProblem, invalidField } from "@platform/server";
import { problem } from "../../problems.ts";
import { SNIFF_BYTES } from "./file-type.ts";
import type { DocumentStorage, ObjectWriter } from "./storage.ts";

export type UploadLimits = {
  /** Largest file accepted (413 past it). */
  maxFileBytes: number;
  /** Largest multipart body: the file plus a few small fields and the part headers. */
  maxBodyBytes: number;
};

/** A file streamed into storage but not committed: the caller commits or aborts it. */
export type ReceivedFile = {
  writer: ObjectWriter;
  size: number;
  sha256: string;
  /** The first and last SNIFF_BYTES, for the type check. */
  head: Uint8Array;
  tail: Uint8Array;
  clientName: string;
};

export type ReceivedUpload = { fields: Record<string, string>; file: ReceivedFile | null };

/** 10 MiB per file; the body may add a few small fields and part headers. */
export const DOCUMENT_LIMITS: UploadLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  maxBodyBytes: 10 * 1024 * 1024 + 64 * 1024,
};

const MULTIPART = /^multipart\/form-data\s*;.*\bboundary=/i;

export const fileTooLarge = (limits: UploadLimits) =>
  problem("DOCUMENT_TOO_LARGE", {
    detail: `A document may be at most ${limits.maxFileBytes} bytes`,
  });

/** Headers-only checks, made before anything else looks at the request (the route's parse). */
export function assertMultipartHeaders(request: Request, limits: UploadLimits): void {
  const contentType = request.headers.get("content-type") ?? "";
  if (!MULTIPART.test(contentType)) {
    throw new HttpProblem("UNSUPPORTED_MEDIA_TYPE", {
      detail: "Upload the file as multipart/form-data (fields `type` and `file`)",
    });
  }
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limits.maxBodyBytes) throw fileTooLarge(limits);
}

/** Keeps the last `SNIFF_BYTES` of a stream without keeping the stream. */
function slideTail(tail: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (chunk.byteLength >= SNIFF_BYTES) return chunk.slice(chunk.byteLength - SNIFF_BYTES);
  const joined = new Uint8Array(tail.byteLength + chunk.byteLength);
  joined.set(tail);
  joined.set(chunk, tail.byteLength);
  return joined.slice(Math.max(0, joined.byteLength - SNIFF_BYTES));
}

function appendHead(head: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (head.byteLength >= SNIFF_BYTES) return head;
  const joined = new Uint8Array(Math.min(SNIFF_BYTES, head.byteLength + chunk.byteLength));
  joined.set(head);
  joined.set(chunk.subarray(0, joined.byteLength - head.byteLength), head.byteLength);
  return joined;
}

/** Resolves when the parser wants more input again, or never will (error, close, abort). */
const drained = (parser: BusboyInstance, abort: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      parser.off("drain", done).off("error", done).off("close", done);
      abort.removeEventListener("abort", done);
      resolve();
    };
    if (abort.aborted) return resolve();
    parser.on("drain", done).on("error", done).on("close", done);
    abort.addEventListener("abort", done);
  });

/**
 * Streams a multipart body: small text fields into memory, the one file (field `file`) into
 * storage while hashing it (SHA-256) and counting its bytes. The body is read chunk by chunk
 * with backpressure, so memory stays at a few chunks whatever the size; past the file limit,
 * reading stops at once, the partial file is deleted and the answer is 413.
 */
export async function receiveUpload(
  request: Request,
  storage: DocumentStorage,
  limits: UploadLimits,
): Promise<ReceivedUpload> {
  assertMultipartHeaders(request, limits);
  if (!request.body) throw invalidField("/body/file", "is required", "required");
  const reader = request.body.getReader();
  const fields: Record<string, string> = {};
  let failure: unknown = null;
  let file: ReceivedFile | null = null;
  let fileStream: BusboyFileStream | null = null;
  let fileTask: Promise<void> = Promise.resolve();
  const stop = new AbortController();
  const fail = (error: unknown) => {
    failure ??= error;
    stop.abort();
    reader.cancel().catch(() => {});
  };

  let parser: BusboyInstance;
  try {
    parser = new Busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: {
        fileSize: limits.maxFileBytes,
        files: 1,
        fields: 8,
        fieldNameSize: 64,
        fieldSize: 256,
        parts: 9,
        headerPairs: 16,
      },
    });
  } catch {
    throw new HttpProblem("BAD_REQUEST", {
      detail: "The multipart boundary is missing or invalid",
    });
  }
  const malformed = () =>
    fail(new HttpProblem("BAD_REQUEST", { detail: "The multipart body is malformed" }));
  const tooMany = () => fail(invalidField("/body", "has too many parts"));
  parser.on("partsLimit", tooMany).on("filesLimit", tooMany).on("fieldsLimit", tooMany);
  parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) fail(invalidField(`/body/${name}`, "is too long", "maxLength"));
    else fields[name] = value;
  });
  parser.on("file", (name, stream, filename) => {
    if (name !== "file" || fileStream) {
      stream.resume();
      fail(invalidField("/body", "must carry exactly one file, in the field `file`"));
      return;
    }
    fileStream = stream;
    // Errors also reach the consumer's loop; this keeps one raised before it starts (while
    // storage opens the file) from being an unhandled 'error' event.
    stream.on("error", malformed);
    stream.on("limit", () => {
      fail(fileTooLarge(limits));
      stream.destroy();
    });
    fileTask = streamToStorage(stream, storage, filename).then((received) => {
      file = received;
    }, fail);
  });
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("finish", resolve).on("error", reject);
  });
  finished.catch(malformed);

  try {
    let total = 0;
    for (;;) {
      if (failure) break;
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limits.maxBodyBytes) {
        fail(fileTooLarge(limits));
        break;
      }
      if (!parser.write(value)) await drained(parser, stop.signal);
    }
    if (!failure) {
      parser.end();
      await finished;
      await fileTask;
    }
  } catch {
    malformed();
  }
  if (failure) {
    (fileStream as BusboyFileStream | null)?.destroy();
    parser.destroy();
    await fileTask;
    await (file as ReceivedFile | null)?.writer.abort();
    throw failure;
  }
  return { fields, file };
}

async function streamToStorage(
  stream: BusboyFileStream,
  storage: DocumentStorage,
  clientName: string,
): Promise<ReceivedFile> {
  const writer = await storage.create();
  const hasher = new Bun.CryptoHasher("sha256");
  const received: ReceivedFile = {
    writer,
    size: 0,
    sha256: "",
    head: new Uint8Array(0),
    tail: new Uint8Array(0),
    clientName,
  };
  try {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      hasher.update(chunk);
      received.size += chunk.byteLength;
      received.head = appendHead(received.head, chunk);
      received.tail = slideTail(received.tail, chunk);
      await writer.write(chunk);
    }
    if (stream.truncated) throw new Error("file truncated at the size limit");
  } catch (error) {
    await writer.abort();
    throw error;
  }
  received.sha256 = hasher.digest("hex");
  return received;
}
