import type { Route } from "./model.ts";

/**
 * Bodies up to this size (declared by Content-Length) are read whole before sending, so another
 * replica can be sent them too: any request after a refused connection, an idempotent one after
 * a reset. Larger or chunked bodies stream and are never sent twice: a stream can be read once,
 * and holding megabytes per request to resend them is not worth it.
 */
export const REPLAYABLE_BODY_BYTES = 64 * 1024;

/** RFC 9110 §9.2.2 idempotent reads, or a request the client made safe to repeat. */
export const isIdempotent = (request: Request) =>
  request.method === "GET" || request.method === "HEAD" || request.headers.has("idempotency-key");

export type OutgoingBody = {
  body: ReadableStream<Uint8Array> | ArrayBuffer | null;
  /** Can the body be sent again (none, or read whole)? Enough after a refused connection. */
  resendable: boolean;
  /** …and is the request safe to repeat? Needed once a replica may have seen it. */
  replayable: boolean;
  /** Did a chunked body run past the route's limit? (set while it streams) */
  exceeded: () => boolean;
};

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
 * The body to send upstream. `declared` is the Content-Length, already checked against the
 * route's limit; a chunked body is counted as it streams and cut off at the limit.
 */
export async function outgoingBody(
  request: Request,
  route: Route,
  declared: string | null,
): Promise<OutgoingBody> {
  let exceeded = false;
  const exceededNow = () => exceeded;
  const idempotent = isIdempotent(request);
  if (!request.body) {
    return { body: null, resendable: true, replayable: idempotent, exceeded: exceededNow };
  }
  if (declared !== null && Number(declared) <= REPLAYABLE_BODY_BYTES) {
    const body = await request.arrayBuffer();
    return { body, resendable: true, replayable: idempotent, exceeded: exceededNow };
  }
  const body =
    declared === null
      ? limitedBody(request.body, route.maxBodyBytes, () => {
          exceeded = true;
        })
      : request.body;
  return { body, resendable: false, replayable: false, exceeded: exceededNow };
}
