/**
 * W3C trace context without the SDK: every request, recorded or not, gets its ids here (for its
 * log lines, the `traceparent` it passes on and, when recorded, its spans made later).
 */

/** `version-traceid-parentid-flags`; later versions may append fields (W3C §3.2.4). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

export type Parent = { traceId: string; spanId: string; sampled: boolean };

/** The caller's trace context, when its `traceparent` is valid. */
export function parseTraceparent(value: string | null): Parent | undefined {
  const match = value ? TRACEPARENT.exec(value.trim()) : null;
  if (!match) return undefined;
  const [, version = "", traceId = "", spanId = "", flags = ""] = match;
  if (version === "ff" || (version === "00" && match[5] !== undefined)) return undefined;
  if (ZEROS.test(traceId) || ZEROS.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/**
 * Random ids drawn 4 KiB at a time: one call to the system's generator and one hex conversion
 * serve about 170 requests, and each id is a slice of that hex string (no buffer or conversion
 * per request: two `toString("hex")` calls a request were 0.6 µs of the gateway's 20).
 * Trace and span ids are unique names, not secrets (W3C §4.1: random, not unguessable).
 */
const pool = new Uint8Array(4096);
let hexPool = "";
let used = 0;
function randomHex(bytes: number): string {
  const chars = bytes * 2;
  if (used + chars > hexPool.length) {
    crypto.getRandomValues(pool);
    hexPool = Buffer.from(pool.buffer).toString("hex");
    used = 0;
  }
  const hex = hexPool.slice(used, used + chars);
  used += chars;
  return hex;
}

export const randomTraceId = () => randomHex(16);
export const randomSpanId = () => randomHex(8);

/** A fresh span id, and a trace id unless the trace continues one. */
export function newIds(traceId?: string): { traceId: string; spanId: string } {
  return { traceId: traceId ?? randomTraceId(), spanId: randomSpanId() };
}

/** The `traceparent` a request passes on: its own span as the parent, and the decision. */
export const traceparentOf = (traceId: string, spanId: string, sampled: boolean) =>
  `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`;
