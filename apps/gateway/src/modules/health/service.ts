import type { Route } from "../proxy/model.ts";
import type { UpstreamHealth } from "./model.ts";

/** Asks one upstream's readiness probe; any answer but 2xx within the deadline is "down". */
async function probe(route: Route, timeoutMs: number): Promise<UpstreamHealth> {
  const started = performance.now();
  const latency = () => Math.round((performance.now() - started) * 100) / 100;
  try {
    const res = await fetch(`${route.target}/health/ready`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    return res.ok
      ? { status: "up", httpStatus: res.status, latencyMs: latency() }
      : { status: "down", httpStatus: res.status, latencyMs: latency(), reason: "not ready" };
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : "unreachable";
    return { status: "down", latencyMs: latency(), reason };
  }
}

/** Every upstream at once, so the aggregate takes as long as the slowest, not the sum. */
export async function checkUpstreams(routes: readonly Route[], timeoutMs: number) {
  const results = await Promise.all(routes.map((route) => probe(route, timeoutMs)));
  const upstreams: Record<string, UpstreamHealth> = {};
  routes.forEach((route, i) => {
    const result = results[i];
    if (result) upstreams[route.upstream] = result;
  });
  return { healthy: results.every((result) => result.status === "up"), upstreams };
}
