/**
 * Prometheus metrics (prom-client), one registry per app: the process's own (CPU, memory, event
 * loop lag, open files), every request by method, templated route and status, its duration, and
 * the problem codes answered (rate-limit refusals among them). Apps add their own on the same
 * registry. They are served on a port of their own (`serveMetrics`), never beside the API, so
 * no public route — the gateway's least of all — can expose them.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { listenError } from "../http/port-holder.ts";
import type { Logger } from "./logger.ts";
import { ObservationQueue } from "./observation-queue.ts";

/** Apps make their own metrics with these, on their Metrics' registry (one prom-client). */
export { Counter, Gauge, Histogram } from "prom-client";

/** Every histogram's buckets: from a cached read (1 ms) to a benchmark run (tens of seconds). */
export const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
] as const;

const SUMS_NAMED_AS_COUNTERS = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

export type Metrics = {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  duration: Histogram<"method" | "route">;
  problems: Counter<"code" | "route">;
  /**
   * Counts one answered request in `requests` and `duration`: queued, given to prom-client in
   * bulk and before every scrape (observation-queue.ts says why).
   */
  recordRequest(method: string, route: string, status: string, seconds: number): void;
};

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  // prom-client's sums of its grouped nodejs_active_* gauges are gauges named `_total`, which
  // Prometheus reserves for counters (promtool refuses them); sum() over the grouped ones says
  // the same.
  for (const name of SUMS_NAMED_AS_COUNTERS) registry.removeSingleMetric(name);
  const answered = new ObservationQueue((method, route, status, seconds) => {
    requests.inc({ method, route, status }, seconds.length);
    const labels = { method, route };
    for (const value of seconds) duration.observe(labels, value);
  });
  // prom-client calls `collect` before it reads a metric (a scrape, or a test's `get()`).
  const collect = () => answered.flush();
  const requests = new Counter({
    name: "http_requests_total",
    help: "Requests answered, by method, templated route and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
    collect,
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to the response, by method and templated route.",
    labelNames: ["method", "route"] as const,
    buckets: [...DURATION_BUCKETS],
    registers: [registry],
    collect,
  });
  return {
    registry,
    requests,
    duration,
    problems: new Counter({
      name: "http_problems_total",
      help: "Error answers by problem code (RATE_LIMITED counts rate-limit refusals).",
      labelNames: ["code", "route"] as const,
      registers: [registry],
    }),
    recordRequest: (method, route, status, seconds) => answered.add(method, route, status, seconds),
  };
}

/**
 * The route label: Elysia's matched pattern (`/api/v1/applications/:id/`), never the raw path,
 * which would make one time series per id. Unmatched requests share one label.
 */
export const routeLabel = (route: string | undefined) => (route ? route : "unmatched");

/** `/metrics` on its own port (0: off). Returns a stop function for shutdown. */
export function serveMetrics(
  metrics: Metrics,
  opts: { port: number; hostname: string; logger: Logger },
): () => void {
  if (opts.port === 0) return () => {};
  const listen = () =>
    Bun.serve({
      port: opts.port,
      hostname: opts.hostname,
      reusePort: false,
      async fetch(request) {
        if (new URL(request.url).pathname !== "/metrics") {
          return new Response(null, { status: 404 });
        }
        return new Response(await metrics.registry.metrics(), {
          headers: { "content-type": metrics.registry.contentType },
        });
      },
    });
  let server: ReturnType<typeof listen>;
  try {
    server = listen();
  } catch (error) {
    throw listenError(opts.hostname, opts.port, error);
  }
  opts.logger.info("metrics listening", { url: `${server.url.href}metrics` });
  return () => void server.stop(true);
}
