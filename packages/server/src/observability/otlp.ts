/**
 * Span records as an OTLP/HTTP JSON export request (opentelemetry-proto's
 * `ExportTraceServiceRequest` in its JSON mapping: ids in hex, times as nanosecond strings,
 * attributes as typed `AnyValue`s). What any OTLP/HTTP receiver reads at `/v1/traces`.
 */
import type { Attributes, AttributeValue, SpanRecord } from "./spans.ts";

type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } };

function anyValue(value: AttributeValue): AnyValue {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") {
    // int64 travels as a decimal string in the JSON mapping.
    return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  }
  return { arrayValue: { values: (value as AttributeValue[]).map(anyValue) } };
}

const keyValues = (attributes: Attributes) =>
  Object.entries(attributes).map(([key, value]) => ({ key, value: anyValue(value) }));

/** Milliseconds since the epoch (with a fraction) as whole nanoseconds, without float loss. */
export function unixNanos(ms: number): string {
  const whole = Math.floor(ms);
  const nanos = BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e6));
  return nanos.toString();
}

/** OTLP's status codes: unset, or error (a span is never marked "ok" here). */
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;

/**
 * One export request for `records`; `epochOffset` turns their performance.now() times (the
 * request thread's clock) into epoch milliseconds.
 */
export function exportRequest(
  records: readonly SpanRecord[],
  resource: Attributes,
  epochOffset: number,
): string {
  const spans = records.map((record) => {
    const attributes = { ...record.attributes };
    // A 5xx answer is an error of the span without an error type of its own.
    if (record.error) attributes["error.type"] = record.error;
    return {
      traceId: record.traceId,
      spanId: record.spanId,
      ...(record.parentSpanId ? { parentSpanId: record.parentSpanId } : {}),
      ...(record.traceState ? { traceState: record.traceState } : {}),
      name: record.name,
      kind: record.kind,
      startTimeUnixNano: unixNanos(epochOffset + record.start),
      endTimeUnixNano: unixNanos(epochOffset + Math.max(record.start, record.end)),
      attributes: keyValues(attributes),
      status: { code: record.error === undefined ? STATUS_UNSET : STATUS_ERROR },
    };
  });
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: keyValues(resource) },
        scopeSpans: [{ scope: { name: "@platform/server" }, spans }],
      },
    ],
  });
}
