/** Per-upstream latency and failures, beside the request metrics every app has. */
import {
  Counter,
  DURATION_BUCKETS,
  Histogram,
  type Metrics,
  ObservationQueue,
} from "@platform/server";

export type UpstreamMetrics = {
  /** Time to the upstream's response headers, by upstream and status. */
  latency: Histogram<"upstream" | "status">;
  /** Failed attempts, by upstream and kind (refused, reset, timeout, client gone, other). */
  failures: Counter<"upstream" | "kind">;
  /** One attempt's time to its response headers: queued, like the request metrics. */
  recordLatency(upstream: string, status: string, seconds: number): void;
};

export function upstreamMetrics(metrics: Metrics): UpstreamMetrics {
  const registers = [metrics.registry];
  // Every proxied request has one or more of these: queued and given to prom-client in bulk
  // and before every scrape (packages/server's observation-queue.ts says why).
  const latencies = new ObservationQueue((upstream, status, _, seconds) => {
    const labels = { upstream, status };
    for (const value of seconds) latency.observe(labels, value);
  });
  const latency = new Histogram({
    name: "gateway_upstream_duration_seconds",
    help: "Time to an upstream's response headers, by upstream and status.",
    labelNames: ["upstream", "status"] as const,
    buckets: [...DURATION_BUCKETS],
    registers,
    collect: () => latencies.flush(),
  });
  return {
    latency,
    failures: new Counter({
      name: "gateway_upstream_failures_total",
      help: "Failed upstream attempts, by upstream and kind.",
      labelNames: ["upstream", "kind"] as const,
      registers,
    }),
    recordLatency: (upstream, status, seconds) => latencies.add(upstream, status, "", seconds),
  };
}
