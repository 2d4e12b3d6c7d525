import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What belongs to the request being served, wherever the code that runs for it sits: every log
 * line written meanwhile carries these ids (logger.ts), so a line deep in a service ("stripe
 * refused") can be found with the request's other lines without anything passed down to it.
 */
export type RequestScope = {
  /** Absent only in a trace started outside any request (a background job's email). */
  readonly requestId?: string;
  /** Present when tracing is on: the trace this request belongs to and its server span's id. */
  readonly traceId?: string;
  readonly spanId?: string;
  /** The request's context for the next service, recorded or not: trace-context.ts. */
  readonly traceparent?: string;
  /** Whether the request is recorded (its spans are made later: spans.ts). */
  readonly sampled?: boolean;
  /** The caller's span id: the server span's parent. */
  readonly parentSpanId?: string;
  /** performance.now() when a recorded request came in, and when its server span ended. */
  readonly start?: number;
  end?: number;
  /**
   * The innermost open child span (`withSpan`), the parent of the next one; absent, the
   * request's server span is. Log lines keep the server span's id either way.
   */
  readonly activeSpanId?: string;
};

const storage = new AsyncLocalStorage<RequestScope>();

/**
 * Every scope is made here, with the same fields in the same order whether the request is
 * traced, unsampled or tracing is off: the code that reads scopes on every request (the logger,
 * the proxy) then meets one object shape, which the JIT keeps fast, instead of a few.
 */
export function newScope(fields: RequestScope): RequestScope {
  return {
    requestId: fields.requestId,
    traceId: fields.traceId,
    spanId: fields.spanId,
    traceparent: fields.traceparent,
    sampled: fields.sampled ?? false,
    parentSpanId: fields.parentSpanId,
    start: fields.start ?? 0,
    end: fields.end ?? 0,
    activeSpanId: fields.activeSpanId,
  };
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** A client's X-Request-Id is kept when it is sane, so one id follows a request end to end. */
export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : Bun.randomUUIDv7();
}

/** Path without the query string: queries can carry tokens, so logs and spans never hold them. */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  return start === -1 ? "/" : url.slice(start, query === -1 ? undefined : query);
}

/** The request being served, if the caller runs on behalf of one. */
export const currentScope = (): RequestScope | undefined => storage.getStore();

/** Runs `work` (and everything it starts, awaits or schedules) inside `scope`. */
export const runInScope = <T>(scope: RequestScope, work: () => T): T => storage.run(scope, work);
