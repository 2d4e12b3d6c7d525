import { type Logger, type Metrics, parseTrustedProxies } from "@platform/server";
import type { AppDeps } from "./app.ts";
import type { GatewayEnv } from "./env.ts";
import { parseOrigins } from "./modules/cors/service.ts";
import { routingTable } from "./modules/proxy/routes.ts";

/**
 * The environment resolved into the app's dependencies, in one place a test can read: a
 * setting parsed by env.ts but never handed to the app is a setting that silently does nothing
 * (GATEWAY_HEALTH_INTERVAL_MS once was, until the failure drills found the checks ran every 5 s).
 */
export function appDeps(env: GatewayEnv, logger: Logger, metrics?: Metrics): AppDeps {
  return {
    metrics,
    routes: routingTable(env),
    trustedProxies: parseTrustedProxies(env.GATEWAY_TRUSTED_PROXIES),
    publicUrl: env.PUBLIC_URL,
    logger,
    corsOrigins: parseOrigins(env.GATEWAY_CORS_ORIGINS),
    healthIntervalMs: env.GATEWAY_HEALTH_INTERVAL_MS,
  };
}
