import { connect } from "node:net";

/**
 * HTTP/1.1 on a bare TCP socket, for what `fetch` cannot send: a Host of our choosing (or none),
 * several requests written at once (pipelining). Responses are read by their framing
 * (Content-Length or chunked), in the order they arrive.
 */
export type RawResponse = { status: number; headers: Headers; body: string };

/** One request as it goes on the wire; `host: null` sends no Host line at all. */
export function rawRequest(
  path: string,
  opts: {
    method?: string;
    host?: string | null;
    headers?: Record<string, string>;
    body?: string;
    version?: "1.0" | "1.1";
  } = {},
): string {
  const { method = "GET", host = "localhost", headers = {}, body, version = "1.1" } = opts;
  const lines = [`${method} ${path} HTTP/${version}`];
  if (host !== null) lines.push(`Host: ${host}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${body ?? ""}`;
}

/** The first complete response in `data`, and how many bytes it took; undefined if incomplete. */
function parseResponse(data: Buffer): { response: RawResponse; length: number } | undefined {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd === -1) return undefined;
  const [statusLine = "", ...fieldLines] = data
    .subarray(0, headEnd)
    .toString("latin1")
    .split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers = new Headers();
  for (const line of fieldLines) {
    const colon = line.indexOf(":");
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let offset = headEnd + 4;
  if (status < 200 || status === 204 || status === 304) {
    return { response: { status, headers, body: "" }, length: offset };
  }
  if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") {
    const chunks: Buffer[] = [];
    for (;;) {
      const lineEnd = data.indexOf("\r\n", offset);
      if (lineEnd === -1) return undefined;
      const size = Number.parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16);
      if (data.length < lineEnd + 2 + size + 2) return undefined;
      chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    return {
      response: { status, headers, body: Buffer.concat(chunks).toString() },
      length: offset,
    };
  }
  const length = Number(headers.get("content-length") ?? 0);
  if (data.length < offset + length) return undefined;
  const body = data.subarray(offset, offset + length).toString();
  return { response: { status, headers, body }, length: offset + length };
}

/**
 * Writes `text` in one go on a new connection to 127.0.0.1:`port` and reads responses until
 * `count` have come, the server closes, or `timeoutMs` passes: whatever came is returned, so a
 * missing answer fails the test's assertion on the list instead of hanging it.
 */
export function exchange(
  port: number,
  text: string,
  count: number,
  timeoutMs = 10_000,
): Promise<RawResponse[]> {
  return new Promise((resolve) => {
    const responses: RawResponse[] = [];
    let buffered = Buffer.alloc(0);
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(responses);
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (let parsed = parseResponse(buffered); parsed; parsed = parseResponse(buffered)) {
        responses.push(parsed.response);
        buffered = buffered.subarray(parsed.length);
      }
      if (responses.length >= count) done();
    });
    socket.on("close", done);
    socket.on("error", done);
  });
}
