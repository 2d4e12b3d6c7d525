import {
  createLogger,
  createMetrics,
  exitOnStartupError,
  parseTrustedProxies,
  serve,
  startTracing,
} from "@platform/server";
import { createApp } from "./app.ts";
import { loadEnv } from "./env.ts";
import { parseOrigins } from "./modules/cors/service.ts";
import { routingTable } from "./modules/proxy/routes.ts";

try {
  const env = loadEnv();
  const logger = createLogger({ service: "gateway", level: env.LOG_LEVEL });
  await startTracing({ service: "gateway", env, logger });
  // Counted only when something can read them: every request pays for the counting.
  const metrics = env.GATEWAY_METRICS_PORT ? createMetrics("gateway") : undefined;
  const routes = routingTable(env);
  logger.info("routes", {
    routes: routes.map(({ upstream, prefixes, target, timeoutMs }) => ({
      upstream,
      prefixes,
      target,
      timeoutMs,
    })),
  });
  const app = createApp({
    metrics,
    routes,
    trustedProxies: parseTrustedProxies(env.GATEWAY_TRUSTED_PROXIES),
    logger,
    corsOrigins: parseOrigins(env.GATEWAY_CORS_ORIGINS),
  });
  serve(app, {
    metrics,
    metricsPort: env.GATEWAY_METRICS_PORT,
    port: env.GATEWAY_PORT,
    hostname: env.HOST,
    logger,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    drainMs: env.SHUTDOWN_DRAIN_MS,
    // Above every route's limit, so the per-route check answers first with a problem+json 413.
    maxRequestBodySize:
      Math.max(env.GATEWAY_MAX_UPLOAD_BYTES, env.GATEWAY_MAX_BODY_BYTES) + 64 * 1024,
  });
} catch (error) {
  exitOnStartupError(error);
}
