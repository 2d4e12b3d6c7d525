/**
 * Every span is a plain record — a recorded request's server span, at the gateway one client
 * span per upstream attempt, and the child spans `withSpan` makes (SQL, Redis, a sandbox run) —
 * kept here and handed in batches to a worker thread that sends them to the collector as OTLP
 * JSON (span-export-worker.ts): every OTEL_BSP_SCHEDULE_DELAY, or at once when 512 are waiting.
 *
 * Why records, not SDK spans: making SDK spans while the request ran sent one request in a
 * hundred (the default sampling) down code the other 99 never run, and batching and exporting
 * them on the request thread cost the gateway more than the spans themselves
 * (docs/performance.md). A record is a dozen fields; the OTLP encoding happens in the worker.
 */
import { currentScope, pathOf, type RequestScope } from "./request-scope.ts";
import { randomSpanId, traceparentOf } from "./trace-context.ts";

/** OTLP's numbering of span kinds (opentelemetry-proto `Span.SpanKind`). */
export const SpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;
export type SpanKind = (typeof SpanKind)[keyof typeof SpanKind];

export type AttributeValue = string | number | boolean | string[] | number[] | boolean[];
export type Attributes = Record<string, AttributeValue>;

export type SpanRecord = {
  kind: SpanKind;
  name: string;
  traceId: string;
  spanId: string;
  /** The caller's span (a server span) or the request's server span (a client span). */
  parentSpanId: string | undefined;
  /** The caller's `tracestate`, carried by a server span whose caller sent one. */
  traceState: string | undefined;
  /** performance.now() at the start and the end. */
  start: number;
  end: number;
  attributes: Attributes;
  /** What failed, when it did: an error code or class name (never a message), or a 5xx. */
  error: string | undefined;
};

const pending: SpanRecord[] = [];
/** A full batch (the OTLP exporter's 512) goes at once, not at the next tick of the timer. */
const EXPORT_BATCH_SIZE = 512;
let onFullBatch: (() => void) | undefined;

/** What to call when a full batch is waiting (tracing.ts hands it to the export worker). */
export const whenBatchFull = (handler: (() => void) | undefined): void => {
  onFullBatch = handler;
};

export const addRecord = (record: SpanRecord): void => {
  pending.push(record);
  if (pending.length >= EXPORT_BATCH_SIZE) onFullBatch?.();
};

/** Everything recorded since the last call, for the span export worker (span-export.ts). */
export const takeRecords = (): SpanRecord[] => pending.splice(0, pending.length);

/** Records a recorded request's server span, named after its templated route, once. */
export function endServerSpan(
  scope: RequestScope | undefined,
  request: Request,
  route: string | undefined,
  status: number | string | undefined,
): void {
  if (!scope?.sampled || scope.end !== 0 || !scope.traceId || !scope.spanId) return;
  scope.end = performance.now();
  const attributes: Attributes = {
    "http.request.method": request.method,
    "url.path": pathOf(request.url),
  };
  if (route) attributes["http.route"] = route;
  // Elysia's status is a number except when a handler set it by name ("Not Found").
  if (typeof status === "number") attributes["http.response.status_code"] = status;
  addRecord({
    kind: SpanKind.SERVER,
    name: route ? `${request.method} ${route}` : request.method,
    traceId: scope.traceId,
    spanId: scope.spanId,
    parentSpanId: scope.parentSpanId,
    traceState: scope.parentSpanId ? (request.headers.get("tracestate") ?? undefined) : undefined,
    start: scope.start ?? 0,
    end: scope.end,
    attributes,
    error: typeof status === "number" && status >= 500 ? "" : undefined,
  });
}

/**
 * An HTTP call of a recorded request (the gateway's attempts), made into a client span later.
 * `startClientSpan` also writes the call's `traceparent` into its headers: in a recorded request
 * the client span's (the parent of the next service's spans), in an unrecorded one the request's
 * own (which says so), and with tracing off none (a client's own goes through untouched). The
 * query string is left out of the span: it can carry tokens.
 */
export type ClientSpan = {
  readonly traceparent: string;
  readonly record: SpanRecord;
};

export function startClientSpan(
  method: string,
  url: string,
  headers: Headers,
): ClientSpan | undefined {
  // One look at the scope for both cases: this runs for every request the gateway forwards.
  const scope = currentScope();
  if (!scope?.sampled || !scope.traceId) {
    // Unsampled, the request's own context (which says so); with tracing off there is none,
    // and a client's own `traceparent` goes through untouched.
    if (scope?.traceparent) headers.set("traceparent", scope.traceparent);
    return undefined;
  }
  const spanId = randomSpanId();
  const query = url.indexOf("?");
  const attributes: Attributes = {
    "http.request.method": method,
    "url.full": query === -1 ? url : url.slice(0, query),
  };
  const traceparent = traceparentOf(scope.traceId, spanId, true);
  headers.set("traceparent", traceparent);
  return {
    traceparent,
    record: {
      kind: SpanKind.CLIENT,
      name: method,
      traceId: scope.traceId,
      spanId,
      parentSpanId: scope.spanId,
      traceState: undefined,
      start: performance.now(),
      end: 0,
      attributes,
      error: undefined,
    },
  };
}

/** Ends a client span with the status it got, or with what failed (its type, no message). */
export function endClientSpan(span: ClientSpan, outcome: { status: number } | { error: unknown }) {
  const { record } = span;
  record.end = performance.now();
  if ("status" in outcome) record.attributes["http.response.status_code"] = outcome.status;
  else record.error = errorType(outcome.error);
  addRecord(record);
}

/** An error's code (ECONNREFUSED, 23505) or class name: what failed, without the message. */
export function errorType(error: unknown): string {
  if (error && typeof error === "object") {
    const { code, errno } = error as { code?: unknown; errno?: unknown };
    if (typeof errno === "string" && /^[0-9A-Z]{5}$/.test(errno)) return errno;
    if (typeof code === "string") return code;
  }
  return error instanceof Error ? error.name : "unknown";
}

/** What `withSpan` hands its work: the open span, to name and describe as the work learns. */
export type Span = {
  setAttribute(key: string, value: AttributeValue): void;
  setAttributes(attributes: Attributes): void;
  updateName(name: string): void;
};

export const spanOf = (record: SpanRecord): Span => ({
  setAttribute(key, value) {
    record.attributes[key] = value;
  },
  setAttributes(attributes) {
    Object.assign(record.attributes, attributes);
  },
  updateName(name) {
    record.name = name;
  },
});
