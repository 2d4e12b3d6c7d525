/**
 * The request thread's side of span-export-worker.ts: the recorded requests' spans are posted to
 * it in batches, and a flush or a stop waits for it to have sent what it holds.
 */
import type { Logger } from "./logger.ts";
import type { FromExporter, ToExporter } from "./span-export-worker.ts";
import type { SpanRecord } from "./span-records.ts";

/** How long a stop waits for the worker's last export before giving up on it. */
const STOP_TIMEOUT_MS = 10_000;

export type SpanExport = {
  send(records: SpanRecord[]): void;
  /** Resolves once everything sent so far has been exported (or failed to be). */
  flush(): Promise<void>;
  /** Exports what is left, then ends the worker. */
  stop(): Promise<void>;
};

export function startSpanExport(opts: {
  url: string;
  service: string;
  scheduleDelayMs: number;
  logger: Logger;
}): SpanExport {
  const worker = new Worker(new URL("./span-export-worker.ts", import.meta.url));
  // The process may exit with the worker running: stop() is how its last spans get out. (Bun's
  // Worker has unref(); the DOM's type, which an app with a front end compiles against, has not.)
  (worker as Worker & { unref(): void }).unref();
  const waiting = new Map<number, () => void>();
  let nextId = 0;
  const post = (message: ToExporter) => worker.postMessage(message);

  worker.onmessage = (event: MessageEvent<FromExporter>) => {
    const message = event.data;
    if (message.type === "diag") opts.logger.warn("tracing", { detail: message.message });
    else {
      waiting.get(message.id)?.();
      waiting.delete(message.id);
    }
  };
  worker.onerror = (event) => {
    opts.logger.error("span export worker failed", { detail: event.message });
  };

  const ask = (type: "flush" | "stop") =>
    new Promise<void>((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        opts.logger.warn("tracing", { detail: `span export ${type} timed out` });
        resolve();
      }, STOP_TIMEOUT_MS);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      post({ type, id });
    });

  post({
    type: "start",
    url: opts.url,
    service: opts.service,
    scheduleDelayMs: opts.scheduleDelayMs,
  });
  return {
    send(records) {
      // Recorded with performance.now(), whose origin is this thread's.
      if (records.length > 0)
        post({ type: "records", records, epochOffset: performance.timeOrigin });
    },
    flush: () => ask("flush"),
    async stop() {
      await ask("stop");
      worker.terminate();
    },
  };
}
