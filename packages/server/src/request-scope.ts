import { AsyncLocalStorage } from "node:async_hooks";
import { type Context, type ContextManager, ROOT_CONTEXT, type Span } from "@opentelemetry/api";

/**
 * What belongs to the request being served, wherever the code that runs for it sits: every log
 * line written meanwhile carries these ids (logger.ts), so a line deep in a service ("stripe
 * refused") can be found with the request's other lines without anything passed down to it.
 */
export type RequestScope = {
  /** Absent only in a trace started outside any request (a background job's email). */
  readonly requestId?: string;
  /** Present when tracing is on: the trace this request belongs to and its server span. */
  readonly traceId?: string;
  readonly spanId?: string;
  /** The server span, ended with the access-log line (http.ts); then removed. */
  span?: Span;
  /** An unsampled request's context for the next service (it has no span): trace-context.ts. */
  readonly traceparent?: string;
  /** OpenTelemetry's active context (the current span), when tracing: see scopeContextManager. */
  readonly context?: Context;
};

const storage = new AsyncLocalStorage<RequestScope>();

/**
 * Every scope is made here, with the same fields in the same order whether the request is
 * traced, unsampled or tracing is off: the code that reads scopes on every request (the logger,
 * the context manager, the proxy) then meets one object shape, which the JIT keeps fast, instead
 * of a few (off, unsampled, sampled, a child span's).
 */
export function newScope(fields: RequestScope): RequestScope {
  return {
    requestId: fields.requestId,
    traceId: fields.traceId,
    spanId: fields.spanId,
    span: fields.span,
    traceparent: fields.traceparent,
    context: fields.context,
  };
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** A client's X-Request-Id is kept when it is sane, so one id follows a request end to end. */
export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : Bun.randomUUIDv7();
}

/** The request being served, if the caller runs on behalf of one. */
export const currentScope = (): RequestScope | undefined => storage.getStore();

/** Runs `work` (and everything it starts, awaits or schedules) inside `scope`. */
export const runInScope = <T>(scope: RequestScope, work: () => T): T => storage.run(scope, work);

/**
 * OpenTelemetry's context kept in the request's own scope: one AsyncLocalStorage for the request
 * id, the log fields and the active span, instead of a second one (context-async-hooks) beside
 * it. Entering a span's context copies the scope with that context; the ids stay the request's.
 */
export const scopeContextManager: ContextManager = {
  active: () => storage.getStore()?.context ?? ROOT_CONTEXT,
  with(context, fn, thisArg, ...args) {
    const scope = storage.getStore();
    return storage.run(newScope({ ...scope, context }), () => fn.call(thisArg, ...args));
  },
  bind(context, target) {
    if (typeof target !== "function") return target;
    return ((...args: unknown[]) =>
      scopeContextManager.with(
        context,
        target as (...a: unknown[]) => unknown,
        undefined,
        ...args,
      )) as typeof target;
  },
  enable: () => scopeContextManager,
  disable: () => scopeContextManager,
};
