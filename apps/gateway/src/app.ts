import { type Logger, type Metrics, platform, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import packageJson from "../package.json";
import { HEALTH_INTERVAL_MS } from "./env.ts";
import { activeChecks } from "./modules/balancer/index.ts";
import { createPool } from "./modules/balancer/service.ts";
import { cors } from "./modules/cors/index.ts";
import { health } from "./modules/health/index.ts";
import { proxy } from "./modules/proxy/index.ts";
import { upstreamMetrics } from "./modules/proxy/metrics.ts";
import type { Route } from "./modules/proxy/model.ts";
import { reference } from "./modules/reference/index.ts";

export type AppDeps = {
  routes: Route[];
  trustedProxies: TrustedProxies;
  /** PUBLIC_URL: the `servers` the site's OpenAPI document names (unset: the caller's own). */
  publicUrl?: string;
  logger: Logger;
  /** Deadline of one readiness probe. */
  probeTimeoutMs?: number;
  /** How often replicas of a balanced route are checked (GATEWAY_HEALTH_INTERVAL_MS). */
  healthIntervalMs?: number;
  /** Request and upstream metrics, served apart by index.ts (none in most tests). */
  metrics?: Metrics;
  /** Origins whose browsers may call the APIs (GATEWAY_CORS_ORIGINS); none by default. */
  corsOrigins?: ReadonlySet<string>;
};

export function createApp(deps: AppDeps) {
  const { routes, logger, probeTimeoutMs = 2_000, healthIntervalMs = HEALTH_INTERVAL_MS } = deps;
  // One pool per route holds its replicas' state: the proxy picks from it, the checks and
  // /gateway/health update it.
  const upstream = deps.metrics && upstreamMetrics(deps.metrics);
  const pools = new Map(
    routes.map((route) => [route, createPool(route, logger, upstream)] as const),
  );
  const allPools = [...pools.values()];
  return (
    new Elysia()
      // Bodies stream through untouched: the gateway never parses them.
      .use(platform({ service: "gateway", logger, parseBodies: false, metrics: deps.metrics }))
      .use(cors({ origins: deps.corsOrigins ?? new Set() }))
      .use(activeChecks({ pools: allPools, intervalMs: healthIntervalMs, probeTimeoutMs }))
      .use(health({ pools: allPools, probeTimeoutMs }))
      .use(
        reference({
          pools: allPools,
          version: packageJson.version,
          servers: { trustedProxies: deps.trustedProxies, publicUrl: deps.publicUrl },
        }),
      )
      .use(proxy({ routes, pools, trustedProxies: deps.trustedProxies }))
  );
}

export type App = ReturnType<typeof createApp>;
