/**
 * The listener that answers pipelined HTTP/1.1 requests (RFC 9112 §9.3.2), for HTTP_PIPELINING.
 * Bun.serve 1.4.4 cannot: when a second request's head is parsed while the first's answer is
 * still pending (any handler that awaits I/O), its uWS layer closes the connection with nothing
 * written, aborting the first request's signal (oven-sh/bun#38128, still open). Bun's node:http
 * server, on the same uWS parser, queues the answers instead; this turns its requests into the
 * fetch Requests the apps take and writes their Responses back. It costs more CPU per request
 * than Bun.serve (docs/decisions.md "Pipelining"), so it is on only where asked for.
 */

import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { rememberPeer } from "./peer.ts";
import { DEFAULT_AUTHORITY, markInvalidHost } from "./request-target.ts";

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export type Listener = {
  readonly url: URL;
  readonly port: number;
  /** Requests received and not yet answered in full. */
  pendingRequests(): number;
  /** Stops accepting; waits for in-flight answers, or (`closeActive`) cuts them. */
  stop(closeActive: boolean): Promise<void>;
};

export type ListenerOptions = {
  port: number;
  hostname: string;
  /** Bodies past this are refused with 413 before the app sees them, as Bun.serve does. */
  maxRequestBodySize: number;
  /** A connection with no request for this long is closed. */
  idleTimeoutSeconds: number;
};

/** uri-host [":" port] (RFC 9110 §7.2); anything else Bun.serve would also not make a URL of. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+,;=%]+)(?::\d*)?$/i;

/**
 * The request's URL from its Host, as Bun.serve makes it; without a usable Host, under the
 * default authority (a Request needs an absolute URL), as request-target.ts does with Bun's.
 */
function urlOf(req: IncomingMessage): { url: string; invalidHost: boolean } {
  const target = req.url ?? "/";
  const path = target.startsWith("/") ? target : pathOfAbsoluteForm(target);
  const host = req.headers.host;
  if (host && HOST.test(host)) return { url: `http://${host}${path}`, invalidHost: false };
  return { url: `http://${DEFAULT_AUTHORITY}${path}`, invalidHost: host !== undefined };
}

/** An absolute-form target (`GET http://x/y`): its path, the Host header naming the server. */
function pathOfAbsoluteForm(target: string): string {
  const url = URL.parse(target);
  return url ? url.pathname + url.search : "/";
}

/**
 * The body as a web stream, read as the app reads it (paused while it is not), cut off past
 * `maxBytes` however it is framed, as Bun.serve cuts it off. An app may answer before reading
 * it all (a 413 part-way through an upload, or the gateway passing on its upstream's): it
 * cancels the stream, and what the client still sends is read and dropped, so the answer
 * reaches the client rather than a reset. Nothing is handed to a stream once it is cancelled,
 * closed or errored: doing so throws, in an event handler, and would end the process.
 */
function bodyOf(req: IncomingMessage, maxBytes: number): ReadableStream<Uint8Array> {
  let received = 0;
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > maxBytes) {
          if (open) controller.error(new Error("request body over the limit"));
          open = false;
          req.destroy();
          return;
        }
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once("end", () => {
        if (open) controller.close();
        open = false;
      });
      req.once("error", (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    pull: () => void req.resume(),
    cancel: () => {
      open = false;
      req.resume();
    },
  });
}

function toRequest(req: IncomingMessage, signal: AbortSignal, maxBytes: number): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? "", raw[i + 1] ?? "");
  const method = req.method ?? "GET";
  // A request has a body only when it says so (RFC 9112 §6.3): a DELETE or POST with neither
  // Content-Length nor Transfer-Encoding has none, and gets none here, as Bun.serve gives it
  // (a body stream would read as a body of unknown length: 415 for want of a content type).
  const length = req.headers["content-length"];
  const declared =
    req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
  const bodyless = method === "GET" || method === "HEAD" || !declared;
  const { url, invalidHost } = urlOf(req);
  const request = new Request(url, {
    method,
    headers,
    signal,
    ...(bodyless ? {} : { body: bodyOf(req, maxBytes), duplex: "half" }),
  });
  if (invalidHost) markInvalidHost(request);
  return request;
}

/** Plain answers written before the app is involved, as Bun.serve writes its own. */
function refuse(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain", connection: "close" });
  res.end(text);
}

async function writeResponse(res: ServerResponse, response: Response, gone: AbortSignal) {
  const headers: string[] = [];
  for (const [name, value] of response.headers) headers.push(name, value);
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // A client gone mid-answer stops the body's source (a CSV export, an upstream's stream).
  const cancel = () => void reader.cancel().catch(() => {});
  gone.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await once(res, "drain", { signal: gone });
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    gone.removeEventListener("abort", cancel);
  }
}

/** RFC 9110 §9.2.1: these may run side by side; their answers still go out in order. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/** Per connection: when the requests so far are all answered, and when the last unsafe one is. */
type Turns = { all: Promise<unknown>; unsafe: Promise<unknown> };

/**
 * When a request may start (RFC 9112 §9.3.2 lets pipelined requests run in parallel only if
 * they are all safe): a safe one after the last unsafe request before it, an unsafe one after
 * every request before it, so a POST never runs beside, or ahead of, what was sent earlier.
 */
function startsAfter(
  turns: WeakMap<Socket, Turns>,
  req: IncomingMessage,
  answered: Promise<void>,
): Promise<unknown> {
  const before = turns.get(req.socket) ?? { all: Promise.resolve(), unsafe: Promise.resolve() };
  const safe = SAFE_METHODS.has(req.method ?? "GET");
  turns.set(req.socket, {
    all: Promise.all([before.all, answered]),
    unsafe: safe ? before.unsafe : answered,
  });
  return safe ? before.unsafe : before.all;
}

export function listenPipelining(fetch: FetchHandler, opts: ListenerOptions): Promise<Listener> {
  let pending = 0;
  let stopping = false;
  const answer = async (req: IncomingMessage, res: ServerResponse, gone: AbortController) => {
    // Hung up while the request waited for its turn: nobody to answer.
    if (gone.signal.aborted) return;
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > opts.maxRequestBodySize) return refuse(res, 413, "Payload Too Large");
    const request = toRequest(req, gone.signal, opts.maxRequestBodySize);
    const peer = req.socket.remoteAddress;
    if (peer) rememberPeer(request, peer);
    try {
      await writeResponse(res, await fetch(request), gone.signal);
    } catch {
      if (!res.headersSent) refuse(res, 500, "Internal Server Error");
      else res.destroy();
    }
  };
  const turns = new WeakMap<Socket, Turns>();
  const server = createServer({ keepAliveTimeout: opts.idleTimeoutSeconds * 1000 }, (req, res) => {
    pending++;
    // request.signal means what it says: this client hung up before its whole answer was out
    // (watched from arrival: a request waiting for its turn can lose its client too).
    const gone = new AbortController();
    const answered = new Promise<void>((resolve) =>
      res.once("close", () => {
        if (!res.writableFinished) gone.abort();
        resolve();
      }),
    );
    void answered.then(() => {
      pending--;
      // Stopping: a keep-alive connection is closed as soon as its last answer is out, or
      // close() would wait for the client to hang up.
      if (stopping) server.closeIdleConnections();
    });
    void startsAfter(turns, req, answered).then(() => answer(req, res, gone));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => {
      server.off("error", reject);
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : opts.port;
      const host = opts.hostname.includes(":") ? `[${opts.hostname}]` : opts.hostname;
      resolve({
        url: new URL(`http://${host}:${port}/`),
        port,
        pendingRequests: () => pending,
        stop: (closeActive) =>
          new Promise((done) => {
            stopping = true;
            server.close(() => done());
            if (closeActive) server.closeAllConnections();
            else server.closeIdleConnections();
          }),
      });
    });
  });
}
