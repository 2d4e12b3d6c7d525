import type { GatewayEnv } from "../../env.ts";
import type { Route } from "./model.ts";

/** The routing table of decisions.md, with each upstream's address, timeout and body limit. */
export function routingTable(env: GatewayEnv): Route[] {
  const target = (url: string | undefined, port: number) =>
    (url ?? `http://127.0.0.1:${port}`).replace(/\/$/, "");
  return [
    {
      upstream: "admissions",
      prefixes: ["/health", "/api/v1"],
      target: target(env.ADMISSIONS_URL, env.ADMISSIONS_PORT),
      timeoutMs: env.GATEWAY_ADMISSIONS_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_UPLOAD_BYTES,
    },
    {
      upstream: "leaderboard",
      prefixes: ["/api/leaderboard"],
      target: target(env.LEADERBOARD_URL, env.LEADERBOARD_PORT),
      timeoutMs: env.GATEWAY_LEADERBOARD_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
    },
    {
      upstream: "runner",
      prefixes: ["/api/run"],
      target: target(env.RUNNER_URL, env.RUNNER_PORT),
      timeoutMs: env.GATEWAY_RUNNER_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
    },
    {
      upstream: "bench",
      prefixes: ["/api/benchmark"],
      target: target(env.BENCH_URL, env.BENCH_PORT),
      timeoutMs: env.GATEWAY_BENCH_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
    },
  ];
}

/** The route owning `path`, matching whole segments only. */
export function matchRoute(routes: readonly Route[], path: string): Route | undefined {
  for (const route of routes) {
    for (const prefix of route.prefixes) {
      if (!path.startsWith(prefix)) continue;
      const next = path.charCodeAt(prefix.length);
      // end of path, "/" or "?"
      if (Number.isNaN(next) || next === 47 || next === 63) return route;
    }
  }
  return undefined;
}
