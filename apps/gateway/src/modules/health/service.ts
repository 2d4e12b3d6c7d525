import { type Pool, probeReplicas, replicaHealth } from "../balancer/service.ts";
import type { UpstreamHealth } from "./model.ts";

/**
 * One upstream's replicas probed at once, each shown with the balancer's view of it. The probes
 * here only report: traffic follows the periodic checks, so calling this public endpoint (often,
 * or at a bad moment) never steers requests.
 */
async function checkUpstream(pool: Pool, timeoutMs: number): Promise<UpstreamHealth> {
  const results = await probeReplicas(pool, timeoutMs);
  const replicas = pool.replicas.map((replica, i) => {
    const readiness = results[i] ?? { status: "down" as const, latencyMs: 0, reason: "unchecked" };
    return replicaHealth(replica, readiness);
  });
  const summary = replicas.find((r) => r.readiness.status === "up") ?? replicas[0];
  return { status: "down", latencyMs: 0, ...summary?.readiness, replicas };
}

/** Every upstream at once, so the aggregate takes as long as the slowest, not the sum. */
export async function checkUpstreams(pools: readonly Pool[], timeoutMs: number) {
  const results = await Promise.all(pools.map((pool) => checkUpstream(pool, timeoutMs)));
  const upstreams: Record<string, UpstreamHealth> = {};
  pools.forEach((pool, i) => {
    const result = results[i];
    if (result) upstreams[pool.route.upstream] = result;
  });
  return { healthy: results.every((result) => result.status === "up"), upstreams };
}
