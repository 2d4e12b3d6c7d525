import { endClientSpan, HttpProblem, startClientSpan } from "@platform/server";
import { eject, type Pool, pick, type Replica } from "../balancer/service.ts";
import { outgoingBody } from "./body.ts";
import { type ForwardedFor, toClientResponseHeaders, toUpstreamRequestHeaders } from "./headers.ts";
import type { Route } from "./model.ts";

const tooLarge = (route: Route) =>
  new HttpProblem("PAYLOAD_TOO_LARGE", {
    detail: `The request body is larger than ${route.maxBodyBytes} bytes allowed for ${route.upstream}`,
  });

/** Nothing reached the replica: sending the request elsewhere cannot run it twice. */
const CONNECT_FAILURES = new Set([
  "ECONNREFUSED",
  "ConnectionRefused",
  "FailedToOpenSocket",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
]);
/** The connection broke before any response: the replica is unwell, but it may have acted. */
const RESETS = new Set(["ECONNRESET", "ConnectionClosed", "EPIPE"]);

/** Why an attempt failed, as operators read it (the log's `kind`, the failures metric). */
function failureKind(reason: string, timedOut: boolean, clientGone: boolean) {
  if (timedOut) return "timeout";
  if (clientGone) return "client gone";
  if (CONNECT_FAILURES.has(reason)) return "refused";
  if (RESETS.has(reason)) return "reset";
  return "other";
}

/** A short, path-free reason: error codes such as ECONNREFUSED, not messages. */
function reasonOf(error: unknown): string {
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return error instanceof Error ? error.name : "unknown";
}

/**
 * One attempt on one replica, counted as outstanding until its response headers are back. In a
 * recorded request it is a client span (made later, like the server span: spans.ts in
 * packages/server), named as the upstream's parent in `traceparent`; otherwise the request's own
 * context goes upstream (an unsampled request's says so, and with tracing off a client's own
 * `traceparent` goes through untouched).
 */
async function send(
  replica: Replica,
  path: string,
  init: BunFetchRequestInit & { headers: Headers },
): Promise<Response> {
  const url = replica.origin + path;
  const span = startClientSpan(init.method ?? "GET", url, init.headers);
  replica.outstanding++;
  try {
    const response = await fetch(url, init);
    if (span) endClientSpan(span, { status: response.status });
    return response;
  } catch (error) {
    if (span) endClientSpan(span, { error });
    throw error;
  } finally {
    replica.outstanding--;
  }
}

/**
 * Forwards one request to a replica of its upstream and streams the answer back. A declared
 * Content-Length over the route's limit is refused before anything is sent. The timeout covers
 * the time to the upstream's response headers (all attempts together); the body then streams at
 * the client's pace. A replica that refuses the connection or resets it before answering is
 * ejected, and the request is sent once more to another replica when that cannot run it twice:
 * after a refused connection any request (nothing reached the first replica; a replica closing
 * its listener as it stops is the common case) whose body could be kept, after a reset only an
 * idempotent one (GET, HEAD, or with Idempotency-Key: a replica killed mid-request is the common
 * case, docs/reliability.md). Nothing else is sent twice: not a POST after a reset (it may have
 * run), not after a timeout (the replica may still be working on it).
 */
export async function forward(request: Request, pool: Pool, path: string, who: ForwardedFor) {
  const { route } = pool;
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > route.maxBodyBytes) throw tooLarge(route);
  const { body, resendable, replayable, exceeded } = await outgoingBody(request, route, declared);

  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, route.timeoutMs);
  // A client that hangs up cancels the upstream request too.
  const onClientGone = () => abort.abort();
  request.signal.addEventListener("abort", onClientGone, { once: true });

  const init: BunFetchRequestInit & { headers: Headers } = {
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
  };
  let replica = pick(pool);
  try {
    for (let attempt = 1; replica; attempt++) {
      try {
        const sent = performance.now();
        const upstream = await send(replica, path, init);
        pool.metrics?.recordLatency(
          route.upstream,
          String(upstream.status),
          (performance.now() - sent) / 1000,
        );
        toClientResponseHeaders(upstream.headers, who.requestId);
        return upstream;
      } catch (error) {
        if (exceeded()) throw tooLarge(route);
        const reason = timedOut ? "timeout" : reasonOf(error);
        const kind = failureKind(reason, timedOut, abort.signal.aborted);
        pool.metrics?.failures.inc({ upstream: route.upstream, kind });
        pool.logger.warn("upstream failed", {
          upstream: route.upstream,
          replica: replica.origin,
          reason,
          kind,
          attempt,
          requestId: who.requestId,
        });
        if (timedOut) {
          throw new HttpProblem("GATEWAY_TIMEOUT", {
            detail: `${route.upstream} did not answer within ${route.timeoutMs} ms`,
          });
        }
        // Refused or reset before any answer: the replica is unwell, and the request may go
        // once to another if that cannot run it twice.
        const broke = kind === "refused" || kind === "reset";
        if (broke) eject(pool, replica, reason);
        const safe = kind === "refused" ? resendable : replayable;
        const retry = broke && safe && attempt === 1;
        const next = retry ? pick(pool, replica) : undefined;
        if (!next) {
          throw new HttpProblem("BAD_GATEWAY", {
            detail: `${route.upstream} is unavailable`,
            extensions: { upstream: route.upstream, reason },
          });
        }
        replica = next;
      }
    }
    throw new Error(`${route.upstream} has no replica`);
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onClientGone);
  }
}
