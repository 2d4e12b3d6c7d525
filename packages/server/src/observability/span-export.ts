/**
 * The request thread's side of span-export-worker.ts: span records are posted to it in batches,
 * and a stop waits for it to have sent what it holds.
 */
import type { Logger } from "./logger.ts";
import type { ExportSettings, FromExporter, ToExporter } from "./span-export-worker.ts";
import type { SpanRecord } from "./spans.ts";

/** How long a stop waits for the worker's last export before giving up on it. */
const STOP_TIMEOUT_MS = 10_000;

export type SpanExport = {
  send(records: SpanRecord[]): void;
  /** Exports what is left, then ends the worker. */
  stop(): Promise<void>;
};

export function startSpanExport(opts: ExportSettings & { logger: Logger }): SpanExport {
  const worker = new Worker(new URL("./span-export-worker.ts", import.meta.url));
  // The process may exit with the worker running: stop() is how its last spans get out. (Bun's
  // Worker has unref(); the DOM's type, which an app with a front end compiles against, has not.)
  (worker as Worker & { unref(): void }).unref();
  let stopped: (() => void) | undefined;
  const post = (message: ToExporter) => worker.postMessage(message);

  worker.onmessage = (event: MessageEvent<FromExporter>) => {
    const message = event.data;
    // A collector that is down or slow shows in the app's log, not as failing requests.
    if (message.type === "warn") opts.logger.warn("tracing", { detail: message.message });
    else stopped?.();
  };
  worker.onerror = (event) => {
    opts.logger.error("span export worker failed", { detail: event.message });
  };

  const { logger: _, ...settings } = opts;
  post({ type: "start", ...settings });
  return {
    send(records) {
      // Recorded with performance.now(), whose origin is this thread's.
      if (records.length > 0)
        post({ type: "records", records, epochOffset: performance.timeOrigin });
    },
    async stop() {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          opts.logger.warn("tracing", { detail: "span export stop timed out" });
          resolve();
        }, STOP_TIMEOUT_MS);
        stopped = () => {
          clearTimeout(timer);
          resolve();
        };
        post({ type: "stop" });
      });
      worker.terminate();
    },
  };
}
