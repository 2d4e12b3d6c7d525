/** Per-upstream latency and failures, beside the request metrics every app has. */
import { Counter, Histogram, type Metrics } from "@platform/server";

export type UpstreamMetrics = {
  /** Time to the upstream's response headers, by upstream and status. */
  latency: Histogram<"upstream" | "status">;
  /** Failed attempts, by upstream and kind (refused, reset, timeout, client gone, other). */
  failures: Counter<"upstream" | "kind">;
};

export function upstreamMetrics(metrics: Metrics): UpstreamMetrics {
  const registers = [metrics.registry];
  return {
    latency: new Histogram({
      name: "gateway_upstream_duration_seconds",
      help: "Time to an upstream's response headers, by upstream and status.",
      labelNames: ["upstream", "status"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    failures: new Counter({
      name: "gateway_upstream_failures_total",
      help: "Failed upstream attempts, by upstream and kind.",
      labelNames: ["upstream", "kind"] as const,
      registers,
    }),
  };
}
