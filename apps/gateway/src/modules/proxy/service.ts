import { HttpProblem } from "@platform/server";
import { type ForwardedFor, toClientResponseHeaders, toUpstreamRequestHeaders } from "./headers.ts";
import type { Route } from "./model.ts";

const tooLarge = (route: Route) =>
  new HttpProblem("PAYLOAD_TOO_LARGE", {
    detail: `The request body is larger than ${route.maxBodyBytes} bytes allowed for ${route.upstream}`,
  });

/** Passes a chunked body through while counting; errors the stream past the limit. */
function limitedBody(body: ReadableStream<Uint8Array>, maxBytes: number, onExceeded: () => void) {
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > maxBytes) {
          onExceeded();
          controller.error(new Error("request body over the limit"));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * Forwards one request to its upstream and streams the answer back. Bodies are never buffered:
 * a declared Content-Length over the route's limit is refused before anything is sent, and a
 * chunked body is counted as it streams and cut off at the limit. The timeout covers the time to
 * the upstream's response headers; the body then streams at the client's pace.
 */
export async function forward(request: Request, route: Route, path: string, who: ForwardedFor) {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > route.maxBodyBytes) throw tooLarge(route);

  let exceeded = false;
  let body: ReadableStream<Uint8Array> | null = request.body;
  if (body && declared === null) {
    body = limitedBody(body, route.maxBodyBytes, () => {
      exceeded = true;
    });
  }

  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, route.timeoutMs);
  // A client that hangs up cancels the upstream request too.
  const onClientGone = () => abort.abort();
  request.signal.addEventListener("abort", onClientGone, { once: true });

  let upstream: Response;
  try {
    upstream = await fetch(route.target + path, {
      method: request.method,
      headers: toUpstreamRequestHeaders(request.headers, who),
      body,
      redirect: "manual",
      signal: abort.signal,
      // Bun's fetch would otherwise gunzip the body yet keep Content-Encoding: gzip, handing the
      // client plain bytes labelled compressed. Passing the bytes through untouched avoids that
      // and the wasted work.
      decompress: false,
      // The standard flag for a streamed request body.
      duplex: "half",
    });
  } catch (error) {
    if (exceeded) throw tooLarge(route);
    if (timedOut) {
      throw new HttpProblem("GATEWAY_TIMEOUT", {
        detail: `${route.upstream} did not answer within ${route.timeoutMs} ms`,
      });
    }
    throw new HttpProblem("BAD_GATEWAY", {
      detail: `${route.upstream} is unavailable`,
      extensions: { upstream: route.upstream, reason: reasonOf(error) },
    });
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onClientGone);
  }
  toClientResponseHeaders(upstream.headers, who.requestId);
  return upstream;
}

/** A short, path-free reason: error codes such as ConnectionRefused, not messages. */
function reasonOf(error: unknown): string {
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return error instanceof Error ? error.name : "unknown";
}
