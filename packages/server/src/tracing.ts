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
  type SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  TraceFlags,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { TracingEnv } from "./env.ts";
import type { Logger } from "./logger.ts";
import {
  contextOf,
  currentScope,
  newScope,
  requestIdFor,
  runInScope,
  scopeContextManager,
} from "./request-scope.ts";
import { type SpanExport, startSpanExport } from "./span-export.ts";
import { errorType, takeRecords, whenBatchFull } from "./span-records.ts";
import { parseTraceparent, randomSpanId, randomTraceId, traceparentOf } from "./trace-context.ts";

export { type Span, SpanKind } from "@opentelemetry/api";

type Provider = { forceFlush(): Promise<void>; shutdown(): Promise<void> };

/** Set while tracing is on; every helper checks this first. */
let on = false;
/** The SDK's tracer, for live child spans (`withSpan`), in a process that makes them. */
let tracer: Tracer | undefined;
let provider: Provider | undefined;
/** Exports the recorded requests' spans (span-records.ts) from a worker. */
let recordExport: SpanExport | undefined;
/** Hands the records to it, every OTEL_BSP_SCHEDULE_DELAY. */
let recordTimer: ReturnType<typeof setInterval> | undefined;
let propagator: TextMapPropagator<Headers> | undefined;
/** Share of the traces starting here that are recorded (OTEL_TRACES_SAMPLER_ARG). */
let sampleRatio = 1;

export const tracingEnabled = (): boolean => on;

/** The collector's traces URL: the signal-specific variable, else `<base>/v1/traces`. */
export function tracesUrl(env: TracingEnv): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined;
}

/**
 * Turns tracing on when an endpoint is set; returns whether it is on. Requests' own spans are
 * exported from a worker (span-export.ts); the SDK is imported here, lazily, only for a process
 * that makes child spans, so a process without an endpoint never loads it, and neither does
 * the gateway (`childSpans: false`), whose only spans are its requests' and their attempts'.
 */
export async function startTracing(opts: {
  service: string;
  env: TracingEnv;
  logger: Logger;
  /** Whether `withSpan` makes spans here (default true); false, the SDK is never loaded. */
  childSpans?: boolean;
}): Promise<boolean> {
  const url = tracesUrl(opts.env);
  if (!url || on) return on;
  on = true;
  sampleRatio = opts.env.OTEL_TRACES_SAMPLER_ARG;
  const service = opts.env.OTEL_SERVICE_NAME ?? opts.service;
  const scheduleDelayMs = opts.env.OTEL_BSP_SCHEDULE_DELAY;
  const exporting = startSpanExport({ url, service, logger: opts.logger });
  recordExport = exporting;
  // The records go in batches, every OTEL_BSP_SCHEDULE_DELAY or as soon as a full one (512) is
  // waiting, and the worker sends each as it comes: a span leaves within the delay, and the
  // records waiting here never outgrow one batch, whatever the rate and the share recorded.
  const handOver = () => exporting.send(takeRecords());
  recordTimer = setInterval(handOver, scheduleDelayMs);
  recordTimer.unref();
  whenBatchFull(handOver);
  if (opts.childSpans !== false) await startChildSpans(url, service, opts.env, opts.logger);
  opts.logger.info("tracing on", { endpoint: url, sampleRatio, service: opts.service });
  return true;
}

/** The SDK's provider for live child spans, exported from this thread as usual. */
async function startChildSpans(url: string, service: string, env: TracingEnv, logger: Logger) {
  const [sdk, { OTLPTraceExporter }, { resourceFromAttributes }, core] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/core"),
  ]);
  const next = new sdk.TracerProvider({
    resource: resourceFromAttributes({ "service.name": service }),
    // Sampling is decided before a span is started (inRequestScope, withSpan): the SDK only
    // ever sees what is recorded.
    sampler: new sdk.AlwaysOnSampler(),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url }),
        scheduledDelayMillis: env.OTEL_BSP_SCHEDULE_DELAY,
      }),
    ],
  });
  // A collector that is down or slow shows in the log, not as failing requests.
  diag.setLogger(
    {
      error: (message) => logger.warn("tracing", { detail: message }),
      warn: (message) => logger.warn("tracing", { detail: message }),
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
  tracer = next.getTracer("@platform/server");
}

/** Exports what is buffered and unregisters everything (shutdown, and tests). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  const exporting = recordExport;
  clearInterval(recordTimer);
  whenBatchFull(undefined);
  // Whatever was recorded goes out before the worker stops.
  const left = takeRecords();
  exporting?.send(left);
  recordExport = undefined;
  sampleRatio = 1;
  on = false;
  tracer = undefined;
  provider = undefined;
  propagator = undefined;
  await Promise.all([exporting?.stop(), stopping?.shutdown()]);
  if (!stopping) return;
  trace.disable();
  context.disable();
  propagation.disable();
  diag.disable();
}

const headerSetter = {
  set: (headers: Headers, key: string, value: string) => headers.set(key, value),
};

/**
 * Liveness and readiness probes are not traced: asked every few seconds by the orchestrator and
 * the gateway, they would bury the traces of real requests.
 */
const PROBE = /^https?:\/\/[^/]+\/(health\/(live|ready)|gateway\/(live|health))\/?(\?|$)/;
const isProbe = (url: string) => PROBE.test(url);

/**
 * Serves one request inside its scope: the request id for the logs and, with tracing on, the
 * trace context it continues (the caller's `traceparent`) or starts, and whether it is recorded.
 *
 * Every request takes the same path here, recorded or not: ids drawn from a pool, one
 * `traceparent` string for the next service, no SDK call. A recorded request's server span is
 * made later from what `endServerSpan` records (span-records.ts says why).
 */
export function inRequestScope<T>(request: Request, handle: () => T): T {
  const requestId = requestIdFor(request);
  if (!on || isProbe(request.url)) return runInScope(newScope({ requestId }), handle);
  // The caller's decision is kept, so a trace is recorded whole across the services or not at
  // all (ParentBased); a trace that starts here is recorded with probability
  // OTEL_TRACES_SAMPLER_ARG (as TraceIdRatioBased would, decided by Math.random).
  const caller = parseTraceparent(request.headers.get("traceparent"));
  const sampled = caller ? caller.sampled : Math.random() < sampleRatio;
  const traceId = caller?.traceId ?? randomTraceId();
  const spanId = randomSpanId();
  return runInScope(
    newScope({
      requestId,
      traceId,
      spanId,
      traceparent: traceparentOf(traceId, spanId, sampled),
      sampled,
      parentSpanId: caller?.spanId,
      start: sampled ? performance.now() : 0,
    }),
    handle,
  );
}

const isSampled = (context: Context) =>
  ((trace.getSpanContext(context)?.traceFlags ?? 0) & TraceFlags.SAMPLED) !== 0;

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
  const active = scope && contextOf(scope);
  if (active) {
    return isSampled(active)
      ? inSpan(tracer.startSpan(name, options, active), active, work)
      : work(undefined);
  }
  // No context: an unsampled request (no span), or no request at all (a root, if sampled).
  if (scope || !options.root || Math.random() >= sampleRatio) return work(undefined);
  return inSpan(tracer.startSpan(name, options, ROOT_CONTEXT), ROOT_CONTEXT, work);
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

/**
 * Writes the current trace context (`traceparent`, `tracestate`) into outgoing headers, so the
 * next service's spans join this trace. Without tracing the headers are left as they are: a
 * client's own `traceparent` goes through the gateway untouched.
 */
export function injectTraceContext(headers: Headers, from?: Context): void {
  if (!on) return;
  const scope = currentScope();
  const active = from ?? scope?.context;
  // The request's own span as the parent, sampled or not, so the next service keeps the
  // decision; the caller's tracestate, if any, travels in the headers the gateway forwards.
  if (!active && scope?.traceparent) headers.set("traceparent", scope.traceparent);
  // A live span's context: a process that makes them has the SDK's propagator.
  else propagator?.inject(active ?? ROOT_CONTEXT, headers, headerSetter);
}
