/**
 * A stand-in OTLP/HTTP collector on a free loopback port: it takes what the apps' exporters send
 * to /v1/traces (OTLP/HTTP JSON, gzipped or not) and keeps the spans, flattened, and each
 * export's resource, for tests to assert on.
 */
import { freePort } from "./ports.ts";

type AttributeValue = string | number | boolean | AttributeValue[];
export type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  /** Absent on a trace's first span. */
  parentSpanId?: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  /** Start and end, in ms since the epoch (OTLP sends ns: ordering and durations need no more). */
  startMs: number;
  endMs: number;
  /** The W3C tracestate the span carries, when any. */
  traceState?: string;
};

type OtlpValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpExport = {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
        status?: { code?: number };
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        traceState?: string;
      }[];
    }[];
  }[];
};

function plainValue(value: OtlpValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return (value.arrayValue?.values ?? []).map(plainValue);
}

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, plainValue(value)]));

export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  /** Each export's `authorization` header (OTEL_EXPORTER_OTLP_HEADERS), or "" without one. */
  const authorizations: string[] = [];
  /** Each export's `content-encoding` (`gzip`), or "" without one. */
  const encodings: string[] = [];
  const resources: Record<string, AttributeValue>[] = [];
  const port = await freePort();
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    async fetch(request) {
      if (new URL(request.url).pathname !== "/v1/traces")
        return new Response(null, { status: 404 });
      contentTypes.add(request.headers.get("content-type") ?? "");
      authorizations.push(request.headers.get("authorization") ?? "");
      encodings.push(request.headers.get("content-encoding") ?? "");
      const bytes = new Uint8Array(await request.arrayBuffer());
      const text = new TextDecoder().decode(
        request.headers.get("content-encoding") === "gzip" ? Bun.gunzipSync(bytes) : bytes,
      );
      const body = JSON.parse(text) as OtlpExport;
      for (const resource of body.resourceSpans ?? []) {
        const described = attributesOf(resource.resource?.attributes);
        resources.push(described);
        const service = String(described["service.name"]);
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              status: span.status?.code ?? 0,
              startMs: Number(BigInt(span.startTimeUnixNano) / 1000n) / 1000,
              endMs: Number(BigInt(span.endTimeUnixNano) / 1000n) / 1000,
              ...(span.traceState ? { traceState: span.traceState } : {}),
            });
          }
        }
      }
      return Response.json({});
    },
  });
  return {
    /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    contentTypes: () => [...contentTypes],
    authorizations: () => [...authorizations],
    encodings: () => [...encodings],
    resources: () => [...resources],
    /** Polls until `ready(spans)` holds (spans are sent in batches, after the request). */
    async waitFor(ready: (spans: ReceivedSpan[]) => boolean, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ready(spans)) {
        if (Date.now() > deadline) throw new Error(`spans never arrived: ${JSON.stringify(spans)}`);
        await Bun.sleep(20);
      }
      return [...spans];
    },
    close: () => server.stop(true),
  };
}
export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
