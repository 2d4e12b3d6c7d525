/**
 * OpenTelemetry tracing, on only when an OTLP endpoint is configured. Off, nothing is loaded
 * beyond the API, no provider is registered and every helper here costs one branch: requests
 * still get their scope (request id in the logs) and a client's `traceparent` passes through
 * the gateway untouched. On, each request gets a server span continuing the caller's W3C trace
 * context, child spans come from `withSpan`, and spans leave in batches over OTLP/HTTP (JSON).
 * Never recorded: bodies, headers, query strings, SQL text or parameters, error messages.
 */
import {
  type Attributes,
  type Context,
  context,
  DiagLogLevel,
  diag,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { TracingEnv } from "./env.ts";
import type { Logger } from "./logger.ts";
import {
  currentScope,
  newScope,
  type RequestScope,
  requestIdFor,
  runInScope,
  scopeContextManager,
} from "./request-scope.ts";
import {
  parseTraceparent,
  randomSpanId,
  randomTraceId,
  unsampledTraceparent,
} from "./trace-context.ts";

export { type Span, SpanKind } from "@opentelemetry/api";

type Provider = { forceFlush(): Promise<void>; shutdown(): Promise<void> };

/** Set while tracing is on; every helper checks this first. */
let tracer: Tracer | undefined;
let provider: Provider | undefined;
let propagator: TextMapPropagator<Headers> | undefined;
/** Share of the traces starting here that are recorded (OTEL_TRACES_SAMPLER_ARG). */
let sampleRatio = 1;

export const tracingEnabled = (): boolean => tracer !== undefined;

/** The collector's traces URL: the signal-specific variable, else `<base>/v1/traces`. */
export function tracesUrl(env: TracingEnv): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined;
}

/**
 * Registers the tracer provider when an endpoint is set; returns whether tracing is on. The SDK
 * is imported here, lazily, so a process without an endpoint never loads it.
 */
export async function startTracing(opts: {
  service: string;
  env: TracingEnv;
  logger: Logger;
}): Promise<boolean> {
  const url = tracesUrl(opts.env);
  if (!url || tracer) return tracer !== undefined;
  const [sdk, { OTLPTraceExporter }, { resourceFromAttributes }, core] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/core"),
  ]);
  const ratio = opts.env.OTEL_TRACES_SAMPLER_ARG;
  const next = new sdk.TracerProvider({
    resource: resourceFromAttributes({
      "service.name": opts.env.OTEL_SERVICE_NAME ?? opts.service,
    }),
    // Sampling is decided before a span is started (inRequestScope, withSpan): the SDK only
    // ever sees what is recorded.
    sampler: new sdk.AlwaysOnSampler(),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url }),
        scheduledDelayMillis: opts.env.OTEL_BSP_SCHEDULE_DELAY,
      }),
    ],
  });
  // A collector that is down or slow shows in the log, not as failing requests.
  diag.setLogger(
    {
      error: (message) => opts.logger.warn("tracing", { detail: message }),
      warn: (message) => opts.logger.warn("tracing", { detail: message }),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  context.setGlobalContextManager(scopeContextManager);
  propagator = new core.W3CTraceContextPropagator();
  propagation.setGlobalPropagator(propagator);
  trace.setGlobalTracerProvider(next);
  provider = next;
  sampleRatio = ratio;
  tracer = next.getTracer("@platform/server");
  opts.logger.info("tracing on", { endpoint: url, sampleRatio: ratio, service: opts.service });
  return true;
}

/** Exports what is buffered and unregisters everything (shutdown, and tests). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  sampleRatio = 1;
  tracer = undefined;
  provider = undefined;
  propagator = undefined;
  if (!stopping) return;
  await stopping.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
  diag.disable();
}

const headerGetter = {
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
  keys: (headers: Headers) => [...headers.keys()],
};
const headerSetter = {
  set: (headers: Headers, key: string, value: string) => headers.set(key, value),
};

/** Path without the query string, which can hold tokens. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  return start === -1 ? "/" : url.slice(start, query === -1 ? undefined : query);
}

/**
 * Liveness and readiness probes are not traced: asked every few seconds by the orchestrator and
 * the gateway, they would bury the traces of real requests.
 */
const PROBE = /^https?:\/\/[^/]+\/(health\/(live|ready)|gateway\/(live|health))\/?(\?|$)/;
const isProbe = (url: string) => PROBE.test(url);

/**
 * Serves one request inside its scope: the request id for the logs and, with tracing on, a
 * server span that continues the caller's `traceparent` and is the parent of everything the
 * request does. The span is ended with the access-log line (`endServerSpan`).
 *
 * The unsampled path (99 % of requests at the default ratio) is the one that must cost nothing:
 * it reads the caller's `traceparent` once, draws ids from a pool and never enters the SDK. The
 * sampled path is a function of its own, so its rare runs do not disturb what the JIT learnt
 * from the common one.
 */
export function inRequestScope<T>(request: Request, handle: () => T): T {
  const requestId = requestIdFor(request);
  if (!tracer || !propagator || isProbe(request.url)) {
    return runInScope(newScope({ requestId }), handle);
  }
  // The caller's decision is kept, so a trace is recorded whole across the services or not at
  // all (ParentBased); a trace that starts here is recorded with probability
  // OTEL_TRACES_SAMPLER_ARG (as TraceIdRatioBased would, decided by Math.random: the trace id is
  // not drawn yet).
  const caller = parseTraceparent(request.headers.get("traceparent"));
  if (caller ? caller.sampled : Math.random() < sampleRatio) {
    return runInScope(sampledScope(tracer, propagator, request, requestId), handle);
  }
  const ids = { traceId: caller?.traceId ?? randomTraceId(), spanId: randomSpanId() };
  const traceparent = unsampledTraceparent(ids);
  return runInScope(newScope({ requestId, ...ids, traceparent }), handle);
}

/** A recorded request's scope: its server span, under the caller's context. */
function sampledScope(
  tracer: Tracer,
  propagator: TextMapPropagator<Headers>,
  request: Request,
  requestId: string,
): RequestScope {
  const parent = propagator.extract(ROOT_CONTEXT, request.headers, headerGetter);
  const span = tracer.startSpan(
    request.method,
    {
      kind: SpanKind.SERVER,
      attributes: { "http.request.method": request.method, "url.path": pathOf(request.url) },
    },
    parent,
  );
  const { traceId, spanId } = span.spanContext();
  return newScope({ requestId, traceId, spanId, span, context: trace.setSpan(parent, span) });
}

/** Names the request's server span after its templated route and ends it, once. */
export function endServerSpan(
  scope: RequestScope | undefined,
  request: Request,
  route: string | undefined,
  status: number | string | undefined,
): void {
  const span = scope?.span;
  if (!span || !scope) return;
  scope.span = undefined;
  if (route) {
    span.updateName(`${request.method} ${route}`);
    span.setAttribute("http.route", route);
  }
  // Elysia's status is a number except when a handler set it by name ("Not Found").
  if (typeof status === "number") {
    span.setAttribute("http.response.status_code", status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

export type SpanOptions = {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Start a trace of its own when no request is being served (a background job's email). */
  root?: boolean;
};

/**
 * Runs `work` inside a child span of the current one. Without tracing, or outside a sampled
 * request (unless `root`), `work` runs alone and gets no span. A failure marks the span with
 * the error's type, never its message (which may hold data).
 */
export function withSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  // Not async itself: off, the caller's promise is returned as it is, with nothing added.
  if (!tracer) return work(undefined);
  // With tracing on, the active context lives in the request's scope (scopeContextManager).
  const scope = currentScope();
  const active = scope?.context;
  if (active) {
    return trace.getSpan(active)?.isRecording()
      ? inSpan(tracer.startSpan(name, options, active), active, work)
      : work(undefined);
  }
  // No context: an unsampled request (no span), or no request at all (a root, if sampled).
  if (scope || !options.root || Math.random() >= sampleRatio) return work(undefined);
  return inSpan(tracer.startSpan(name, options, ROOT_CONTEXT), ROOT_CONTEXT, work);
}

/**
 * Whether the current request is being recorded, so `withSpan` would make a span: callers on a
 * hot path check it before building a span's name and attributes for nothing.
 */
export function recording(): boolean {
  const active = tracer && currentScope()?.context;
  return active ? trace.getSpan(active)?.isRecording() === true : false;
}

async function inSpan<T>(
  span: Span,
  parent: Context,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute("error.type", errorType(error));
    throw error;
  } finally {
    span.end();
  }
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

/**
 * Writes the current trace context (`traceparent`, `tracestate`) into outgoing headers, so the
 * next service's spans join this trace. Without tracing the headers are left as they are: a
 * client's own `traceparent` goes through the gateway untouched.
 */
export function injectTraceContext(headers: Headers, from?: Context): void {
  if (!propagator) return;
  const scope = currentScope();
  const active = from ?? scope?.context ?? ROOT_CONTEXT;
  // Unsampled: the request's own id as the parent, not sampled, so the next service keeps the
  // decision; the caller's tracestate, if any, travels in the headers the gateway forwards.
  if (scope?.traceparent && !trace.getSpan(active)) headers.set("traceparent", scope.traceparent);
  else propagator.inject(active, headers, headerSetter);
}
