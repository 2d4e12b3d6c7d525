/**
 * The worker that exports the recorded requests' spans (span-records.ts): records come in from
 * the request thread in batches (every OTEL_BSP_SCHEDULE_DELAY, or 512 at once); here each
 * becomes a `ReadableSpan` (the SDK's export interface) and goes through the official
 * BatchSpanProcessor and OTLP/HTTP exporter.
 *
 * Why a thread of its own: the same work on the request thread — SDK spans, their batching, the
 * OTLP serialising and the HTTP export, code that runs now and then next to code that runs for
 * every request — cost the gateway several per cent of its CPU per request, far more than the
 * microseconds it takes in a tight loop. Here it runs beside the requests rather than between
 * them; its CPU is still the process's, and is counted (docs/performance.md, issue 17).
 */
import {
  createTraceState,
  DiagLogLevel,
  diag,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
} from "@opentelemetry/api";
import { millisToHrTime } from "@opentelemetry/core";
import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import { createLegacyOtlpBrowserExportDelegate } from "@opentelemetry/otlp-exporter-base/browser-http";
import { convertLegacyHttpOptions } from "@opentelemetry/otlp-exporter-base/node-http";
import { JsonTraceSerializer, TraceExporterMetricsHelper } from "@opentelemetry/otlp-transformer";
import { type Resource, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace";
import type { SpanRecord } from "./span-records.ts";

/** What the request thread sends; `epochOffset` turns its performance.now() times into epoch ms. */
export type ToExporter =
  | { type: "start"; url: string; service: string }
  | { type: "records"; records: SpanRecord[]; epochOffset: number }
  | { type: "stop" };

export type FromExporter =
  | { type: "stopped" }
  | { type: "diag"; level: "warn" | "error"; message: string };

declare const self: Worker;

const SCOPE = { name: "@platform/server" };
let processor: BatchSpanProcessor | undefined;
let resource: Resource | undefined;

const reply = (message: FromExporter) => self.postMessage(message);

/**
 * The OTLP/HTTP JSON trace exporter, assembled as the official package assembles its browser
 * build (`@opentelemetry/exporter-trace-otlp-http`'s platform/browser: the same serializer,
 * retries and diagnostics, sent with `fetch`), configured as its Node build is (the URL, then
 * OTEL_EXPORTER_OTLP_[TRACES_]HEADERS and _TIMEOUT from the environment). Why not the Node
 * build: it sends with node:http, where Bun throws a refused connection as an uncaught error;
 * in a worker that ends the worker, and the export it was making never settles. What the fetch
 * transport cannot do is compress (OTEL_EXPORTER_OTLP_COMPRESSION): said once, at start.
 */
class FetchTraceExporter extends OTLPExporterBase<ReadableSpan[]> {
  constructor(url: string) {
    const required = { "Content-Type": "application/json" };
    const options = convertLegacyHttpOptions({ url }, "TRACES", "v1/traces", required);
    if (options.compression !== "none") {
      diag.warn(
        `OTLP compression ${options.compression} is not applied to recorded requests' spans`,
      );
    }
    super(
      createLegacyOtlpBrowserExportDelegate(
        {
          url: options.url,
          headers: options.headers,
          timeoutMillis: options.timeoutMillis,
          concurrencyLimit: options.concurrencyLimit,
        },
        JsonTraceSerializer,
        "otlp_http_span_exporter",
        TraceExporterMetricsHelper,
        undefined,
        "v1/traces",
        required,
      ),
    );
  }
}

function readableSpan(record: SpanRecord, epochOffset: number, of: Resource): ReadableSpan {
  const context: SpanContext = {
    traceId: record.traceId,
    spanId: record.spanId,
    traceFlags: TraceFlags.SAMPLED,
    // A server span carries its caller's tracestate, as the SDK gives a span its parent's.
    ...(record.traceState ? { traceState: createTraceState(record.traceState) } : {}),
  };
  const startMs = epochOffset + record.start;
  const endMs = epochOffset + record.end;
  // The record is this thread's own copy (posted, so cloned).
  const { attributes } = record;
  // A 5xx answer is an error of the span without an error type of its own.
  if (record.error) attributes["error.type"] = record.error;
  return {
    name: record.name,
    kind: record.kind,
    spanContext: () => context,
    parentSpanContext: record.parentSpanId
      ? {
          traceId: record.traceId,
          spanId: record.parentSpanId,
          traceFlags: TraceFlags.SAMPLED,
          // A server span's parent is the caller's, in another process.
          isRemote: record.kind === SpanKind.SERVER,
        }
      : undefined,
    startTime: millisToHrTime(startMs),
    endTime: millisToHrTime(endMs),
    duration: millisToHrTime(Math.max(0, endMs - startMs)),
    status: { code: record.error === undefined ? SpanStatusCode.UNSET : SpanStatusCode.ERROR },
    attributes,
    links: [],
    events: [],
    ended: true,
    resource: of,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

self.onmessage = async (event: MessageEvent<ToExporter>) => {
  const message = event.data;
  switch (message.type) {
    case "start": {
      // A collector that is down or slow shows in the app's log, not as failing requests.
      const forward = (level: "warn" | "error") => (text: string) =>
        reply({ type: "diag", level, message: text });
      diag.setLogger(
        {
          error: forward("error"),
          warn: forward("warn"),
          info: () => {},
          debug: () => {},
          verbose: () => {},
        },
        DiagLogLevel.WARN,
      );
      resource = resourceFromAttributes({ "service.name": message.service });
      // Its queue (2048 at most) and batches of 512; no wait of its own: each batch that comes
      // in is flushed at once.
      processor = new BatchSpanProcessor({ exporter: new FetchTraceExporter(message.url) });
      return;
    }
    case "records": {
      if (!processor || !resource) return;
      for (const record of message.records) {
        processor.onEnd(readableSpan(record, message.epochOffset, resource));
      }
      // The request thread batched them already (by time and size): sent as they come.
      await settle(processor.forceFlush());
      return;
    }
    case "stop":
      await settle(processor?.shutdown());
      processor = undefined;
      reply({ type: "stopped" });
      return;
  }
};

/** A failed export (the collector down) is reported, and a stop still ends. */
async function settle(work: Promise<void> | undefined): Promise<void> {
  try {
    await work;
  } catch (error) {
    reply({ type: "diag", level: "warn", message: `export failed: ${String(error)}` });
  }
}
