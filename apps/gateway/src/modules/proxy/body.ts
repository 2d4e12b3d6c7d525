import type { Route } from "./model.ts";

/**
 * Bodies of idempotent requests up to this size are read whole before sending, so a retry on
 * another replica can send them again. Larger or chunked bodies stream and are never retried: a
 * stream can be read once, and holding megabytes per request to replay them is not worth it.
 */
export const REPLAYABLE_BODY_BYTES = 64 * 1024;

/** RFC 9110 §9.2.2 idempotent reads, or a request the client made safe to repeat. */
export const isIdempotent = (request: Request) =>
  request.method === "GET" || request.method === "HEAD" || request.headers.has("idempotency-key");

export type OutgoingBody = {
  body: ReadableStream<Uint8Array> | ArrayBuffer | null;
  /** Can the same request be sent again to another replica? */
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
  if (!request.body) return { body: null, replayable: idempotent, exceeded: exceededNow };
  if (idempotent && declared !== null && Number(declared) <= REPLAYABLE_BODY_BYTES) {
    return { body: await request.arrayBuffer(), replayable: true, exceeded: exceededNow };
  }
  const body =
    declared === null
      ? limitedBody(request.body, route.maxBodyBytes, () => {
          exceeded = true;
        })
      : request.body;
  return { body, replayable: false, exceeded: exceededNow };
}
