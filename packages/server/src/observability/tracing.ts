/**
 * Tracing, on only when an OTLP endpoint is configured. Off, every helper here costs one branch:
 * requests still get their scope (request id in the logs) and a client's `traceparent` passes
 * through the gateway untouched. On, each request gets a server span continuing the caller's W3C
 * trace context, child spans come from `withSpan`, and every span is a plain record (spans.ts)
 * that a worker sends to the collector as OTLP/HTTP JSON (span-export-worker.ts). No SDK is
 * loaded: the protocol is small and public, and the SDK's Node exporter throws a refused
 * connection as an uncaught error under Bun.
 * Never recorded: bodies, headers, query strings, SQL text or parameters, error messages.
 */
import type { TracingEnv } from "../config/env.ts";
import type { Logger } from "./logger.ts";
import {
  currentScope,
  newScope,
  type RequestScope,
  requestIdFor,
  runInScope,
} from "./request-scope.ts";
import { type SpanExport, startSpanExport } from "./span-export.ts";
import {
  type Attributes,
  addRecord,
  errorType,
  type Span,
  SpanKind,
  type SpanRecord,
  spanOf,
  takeRecords,
  whenBatchFull,
} from "./spans.ts";
import { parseTraceparent, randomSpanId, randomTraceId, traceparentOf } from "./trace-context.ts";

/** Set while tracing is on; every helper checks this first. */
let on = false;
/** Sends the records to the collector from a worker. */
let recordExport: SpanExport | undefined;
/** Hands the records to it, every OTEL_BSP_SCHEDULE_DELAY. */
let recordTimer: ReturnType<typeof setInterval> | undefined;
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
 * `key=value` pairs, comma-separated, values percent-encoded: the form of OTEL_RESOURCE_ATTRIBUTES
 * and OTEL_EXPORTER_OTLP_HEADERS (OpenTelemetry's environment specification). A pair without
 * `=` is skipped, as the specification says.
 */
export function keyValueList(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of (text ?? "").split(",")) {
    const at = item.indexOf("=");
    if (at <= 0) continue;
    const key = item.slice(0, at).trim();
    try {
      if (key) pairs[key] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      // A malformed escape: the pair is skipped rather than the whole list.
    }
  }
  return pairs;
}

/** What each span's resource says: OTEL_RESOURCE_ATTRIBUTES, then the service's own name. */
export function resourceOf(env: TracingEnv, service: string, version?: string): Attributes {
  return {
    ...keyValueList(env.OTEL_RESOURCE_ATTRIBUTES),
    // OTEL_SERVICE_NAME wins over a service.name in the attributes (the specification's order).
    "service.name": env.OTEL_SERVICE_NAME ?? service,
    ...(version ? { "service.version": version } : {}),
  };
}

/** Turns tracing on when an endpoint is set; returns whether it is on. */
export async function startTracing(opts: {
  service: string;
  /** The app's version (`service.version` on its spans). */
  version?: string;
  env: TracingEnv;
  logger: Logger;
}): Promise<boolean> {
  const url = tracesUrl(opts.env);
  if (!url || on) return on;
  on = true;
  const { env } = opts;
  sampleRatio = env.OTEL_TRACES_SAMPLER_ARG;
  const exporting = startSpanExport({
    url,
    resource: resourceOf(env, opts.service, opts.version),
    headers: {
      ...keyValueList(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...keyValueList(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    timeoutMs: env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT ?? 10_000,
    gzip:
      (env.OTEL_EXPORTER_OTLP_TRACES_COMPRESSION ?? env.OTEL_EXPORTER_OTLP_COMPRESSION) === "gzip",
    logger: opts.logger,
  });
  recordExport = exporting;
  // The records go in batches, every OTEL_BSP_SCHEDULE_DELAY or as soon as a full one (512) is
  // waiting, and the worker sends each as it comes: a span leaves within the delay, and the
  // records waiting here never outgrow one batch, whatever the rate and the share recorded.
  const handOver = () => exporting.send(takeRecords());
  recordTimer = setInterval(handOver, env.OTEL_BSP_SCHEDULE_DELAY);
  recordTimer.unref();
  whenBatchFull(handOver);
  opts.logger.info("tracing on", { endpoint: url, sampleRatio, service: opts.service });
  return true;
}

/** Sends what is recorded and turns tracing off (shutdown, and tests). */
export async function stopTracing(): Promise<void> {
  const exporting = recordExport;
  clearInterval(recordTimer);
  whenBatchFull(undefined);
  // Whatever was recorded goes out before the worker stops.
  exporting?.send(takeRecords());
  recordExport = undefined;
  sampleRatio = 1;
  on = false;
  await exporting?.stop();
}

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
 * Every request takes the same path here, recorded or not: ids drawn from a pool and one
 * `traceparent` string for the next service. A recorded request's server span is made later
 * from what `endServerSpan` records (spans.ts).
 */
export function inRequestScope<T>(request: Request, handle: () => T): T {
  const requestId = requestIdFor(request);
  if (!on || isProbe(request.url)) return runInScope(newScope({ requestId }), handle);
  // The caller's decision is kept, so a trace is recorded whole across the services or not at
  // all (parent-based); a trace that starts here is recorded with probability
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

export type SpanOptions = {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Start a trace of its own when no request is being served (a background job's email). */
  root?: boolean;
};

/**
 * Runs `work` inside a child span of the current one. Without tracing, or outside a recorded
 * request (unless `root`, then sampled as a new trace), `work` runs alone and gets no span. A
 * failure marks the span with the error's type, never its message (which may hold data).
 */
export function withSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  // Not async itself: off, the caller's promise is returned as it is, with nothing added.
  if (!on) return work(undefined);
  const scope = currentScope();
  let parent: RequestScope;
  if (scope) {
    if (!scope.sampled || !scope.traceId) return work(undefined);
    parent = scope;
  } else {
    // No request: a trace of its own, if asked for and drawn.
    if (!options.root || Math.random() >= sampleRatio) return work(undefined);
    parent = newScope({ traceId: randomTraceId(), sampled: true });
  }
  const traceId = parent.traceId ?? randomTraceId();
  const record: SpanRecord = {
    kind: options.kind ?? SpanKind.INTERNAL,
    name,
    traceId,
    spanId: randomSpanId(),
    parentSpanId: parent.activeSpanId ?? parent.spanId,
    traceState: undefined,
    start: performance.now(),
    end: 0,
    attributes: { ...options.attributes },
    error: undefined,
  };
  // The work's own scope: the same request (and ids in its log lines), this span the parent.
  const inside = newScope({
    ...parent,
    spanId: parent.spanId ?? record.spanId,
    activeSpanId: record.spanId,
  });
  return runInScope(inside, async () => {
    try {
      return await work(spanOf(record));
    } catch (error) {
      record.error = errorType(error);
      throw error;
    } finally {
      record.end = performance.now();
      addRecord(record);
    }
  });
}

/**
 * Writes the current trace context (`traceparent`) into outgoing headers, so the next service's
 * spans join this trace. Without tracing the headers are left as they are: a client's own
 * `traceparent` goes through the gateway untouched.
 */
export function injectTraceContext(headers: Headers): void {
  if (!on) return;
  const scope = currentScope();
  if (!scope?.traceId) return;
  // Inside a child span, that span is the parent; else the request's own context (which also
  // says whether it is recorded, so the next service keeps the decision).
  if (scope.activeSpanId) {
    headers.set("traceparent", traceparentOf(scope.traceId, scope.activeSpanId, true));
  } else if (scope.traceparent) headers.set("traceparent", scope.traceparent);
}
