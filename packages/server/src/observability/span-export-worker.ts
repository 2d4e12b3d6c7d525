/**
 * The worker that sends span records (spans.ts) to the collector: records come in from the
 * request thread in batches (every OTEL_BSP_SCHEDULE_DELAY, or 512 at once), and each batch goes
 * out as one OTLP/HTTP JSON POST (otlp.ts), one at a time, retried as the OTLP specification
 * says (429, 502, 503, 504 and failed connections, with backoff, honouring Retry-After).
 *
 * Why a thread of its own: encoding and sending on the request thread — code that runs now and
 * then next to code that runs for every request — cost the gateway several per cent of its CPU
 * per request, far more than it takes in a tight loop. Here it runs beside the requests rather
 * than between them (docs/decisions.md § Tracing).
 */
import { exportRequest } from "./otlp.ts";
import type { Attributes, SpanRecord } from "./spans.ts";

export type ExportSettings = {
  url: string;
  resource: Attributes;
  /** OTEL_EXPORTER_OTLP_[TRACES_]HEADERS: a collector's token, say. */
  headers: Record<string, string>;
  /** Each POST's deadline (OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT). */
  timeoutMs: number;
  gzip: boolean;
};

/** What the request thread sends; `epochOffset` turns its performance.now() times into epoch ms. */
export type ToExporter =
  | ({ type: "start" } & ExportSettings)
  | { type: "records"; records: SpanRecord[]; epochOffset: number }
  | { type: "stop" };

export type FromExporter = { type: "stopped" } | { type: "warn"; message: string };

declare const self: Worker;

/** Most records waiting for a slow or absent collector; more are dropped (and said so). */
const MAX_WAITING = 2048;
const MAX_ATTEMPTS = 5;
const RETRYABLE = new Set([429, 502, 503, 504]);

let settings: ExportSettings | undefined;
const waiting: { records: SpanRecord[]; epochOffset: number }[] = [];
let waitingCount = 0;
let sending: Promise<void> | undefined;
let stopping = false;

const warn = (message: string) => self.postMessage({ type: "warn", message } as FromExporter);

/** The reason a POST failed, for the log: a status, or the connection's error code. */
const reasonOf = (error: unknown) =>
  error instanceof Error
    ? `${(error as { code?: string }).code ?? error.name}: ${error.message}`
    : String(error);

async function post(batch: { records: SpanRecord[]; epochOffset: number }): Promise<void> {
  if (!settings) return;
  const json = exportRequest(batch.records, settings.resource, batch.epochOffset);
  const headers: Record<string, string> = {
    ...settings.headers,
    "content-type": "application/json",
  };
  const body = settings.gzip ? Bun.gzipSync(json) : json;
  if (settings.gzip) headers["content-encoding"] = "gzip";
  let failure = "";
  for (let attempt = 1; ; attempt++) {
    let retryAfterMs: number | undefined;
    try {
      const response = await fetch(settings.url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      await response.arrayBuffer();
      if (response.ok) return;
      failure = `collector answered ${response.status}`;
      if (!RETRYABLE.has(response.status)) break;
      const after = Number(response.headers.get("retry-after"));
      if (after > 0) retryAfterMs = after * 1000;
    } catch (error) {
      failure = reasonOf(error);
    }
    // Stopping, what is left gets one attempt: a shutdown does not wait on a collector.
    if (attempt >= MAX_ATTEMPTS || stopping) {
      warn(`export of ${batch.records.length} spans failed: ${failure}`);
      return;
    }
    const backoffMs = Math.min(5_000, 1_000 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
    await Bun.sleep(retryAfterMs ?? backoffMs);
  }
  warn(`export of ${batch.records.length} spans failed: ${failure}`);
}

/** Sends the waiting batches one after another, until none is left. */
function drain(): Promise<void> {
  sending ??= (async () => {
    for (let batch = waiting.shift(); batch; batch = waiting.shift()) {
      waitingCount -= batch.records.length;
      await post(batch);
    }
    sending = undefined;
  })();
  return sending;
}

self.onmessage = async (event: MessageEvent<ToExporter>) => {
  const message = event.data;
  switch (message.type) {
    case "start": {
      const { type: _, ...given } = message;
      settings = given;
      return;
    }
    case "records": {
      if (!settings || message.records.length === 0) return;
      if (waitingCount + message.records.length > MAX_WAITING) {
        warn(`collector behind: ${message.records.length} spans dropped`);
        return;
      }
      waiting.push({ records: message.records, epochOffset: message.epochOffset });
      waitingCount += message.records.length;
      void drain();
      return;
    }
    case "stop":
      stopping = true;
      await drain();
      self.postMessage({ type: "stopped" } as FromExporter);
      return;
  }
};
