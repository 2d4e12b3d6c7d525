/**
 * One registry holding every metric any app registers (the shared request metrics and each
 * app's own), as the apps' own code makes them: what the dashboard and the naming checks read.
 */
import { benchMetrics } from "../apps/bench/src/metrics.ts";
import { upstreamMetrics } from "../apps/gateway/src/modules/proxy/metrics.ts";
import { runnerMetrics } from "../apps/runner/src/metrics.ts";
import { unavailableRunner } from "../apps/runner/src/sandbox/runner.ts";
import { createMetrics, type Metrics } from "../packages/server/src/index.ts";

export async function allMetrics(): Promise<Metrics> {
  const metrics = createMetrics("all");
  // A runner that runs nothing reports every statistic a real one does, all zero.
  const layers = { static: true, lockdown: true, seccomp: true, namespaces: true, rlimits: true };
  runnerMetrics(metrics, unavailableRunner(layers, "not started"));
  benchMetrics(metrics, { busy: false, waiting: 0 } as never);
  upstreamMetrics(metrics);
  const { admissionsMetrics } = await import("../apps/admissions/src/metrics.ts");
  admissionsMetrics(metrics, { run: async () => ({ pending: 0, sent: 0, dead: 0 }) } as never);
  return metrics;
}
