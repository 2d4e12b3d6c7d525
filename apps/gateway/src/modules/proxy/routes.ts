import { splitList } from "@platform/server";
import type { GatewayEnv } from "../../env.ts";
import { RESERVED_PREFIXES, type Route } from "./model.ts";

/** The routing table of decisions.md, with each upstream's address, timeout and body limit. */
export function routingTable(env: GatewayEnv): Route[] {
  const target = (urls: string | undefined, port: number) =>
    originsOf(urls ?? `http://127.0.0.1:${port}`).join(",");
  return [
    {
      upstream: "admissions",
      prefixes: ["/health", "/api/v1"],
      target: target(env.ADMISSIONS_URL, env.ADMISSIONS_PORT),
      // The path its compose healthcheck asks: admissions' own URLs end in a slash.
      readyPath: "/health/ready/",
      openapiPath: "/api/v1/schema/",
      timeoutMs: env.GATEWAY_ADMISSIONS_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_UPLOAD_BYTES,
    },
    {
      upstream: "leaderboard",
      openapiPath: "/openapi.json",
      prefixes: ["/api/leaderboard"],
      target: target(env.LEADERBOARD_URL, env.LEADERBOARD_PORT),
      timeoutMs: env.GATEWAY_LEADERBOARD_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
    },
    {
      upstream: "runner",
      openapiPath: "/openapi.json",
      prefixes: ["/api/run"],
      target: target(env.RUNNER_URL, env.RUNNER_PORT),
      timeoutMs: env.GATEWAY_RUNNER_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
    },
    {
      upstream: "bench",
      openapiPath: "/openapi.json",
      prefixes: ["/api/benchmark"],
      target: target(env.BENCH_URL, env.BENCH_PORT),
      timeoutMs: env.GATEWAY_BENCH_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
    },
    {
      upstream: "web",
      prefixes: ["/"],
      target: target(env.WEB_URL, env.WEB_PORT),
      timeoutMs: env.GATEWAY_WEB_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
      fallback: true,
    },
  ];
}

/** The replicas' origins of a route's `target` list, without trailing slashes. */
export function originsOf(target: string): string[] {
  return splitList(target).map((origin) => origin.replace(/\/$/, ""));
}

/** Is `path` `prefix` itself or below it, on a segment boundary ("/", "?" or the end)? */
function under(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charCodeAt(prefix.length);
  return Number.isNaN(next) || next === 47 || next === 63;
}

/**
 * The route owning `path`, matching whole segments only; else the fallback route (the site),
 * unless the path is under a reserved prefix (/api, /gateway): those stay 404 here.
 */
export function matchRoute(routes: readonly Route[], path: string): Route | undefined {
  for (const route of routes) {
    if (route.fallback) continue;
    for (const prefix of route.prefixes) if (under(path, prefix)) return route;
  }
  if (RESERVED_PREFIXES.some((prefix) => under(path, prefix))) return undefined;
  return routes.find((route) => route.fallback);
}
