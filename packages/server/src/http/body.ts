import { HttpProblem } from "./problem.ts";

const tooLarge = (maxBytes: number) =>
  new HttpProblem("PAYLOAD_TOO_LARGE", {
    detail: `The request body is larger than ${maxBytes} bytes`,
  });

/**
 * Reads a request body up to `maxBytes`, refusing early on a too-large Content-Length and
 * otherwise stopping the stream as soon as the limit is passed, so an oversized or endless
 * chunked body is never held in memory.
 */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** JSON bodies: size-capped, strict UTF-8, and a 400 that says where parsing failed. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const bytes = await readBodyCapped(request, maxBytes);
  if (bytes.byteLength === 0) {
    throw new HttpProblem("MALFORMED_JSON", {
      detail: "The request body is empty; a JSON document is required",
    });
  }
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch (error) {
    const reason = error instanceof Error ? error.message : "invalid JSON";
    throw new HttpProblem("MALFORMED_JSON", {
      detail: `The request body is not valid JSON: ${reason}`,
    });
  }
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** application/json and the +json family, ignoring parameters such as charset. */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const semicolon = contentType.indexOf(";");
  return JSON_TYPE.test((semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim());
}

/** True when the request carries a body at all (declared length or chunked). */
export function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return request.headers.has("transfer-encoding") || request.body !== null;
}
