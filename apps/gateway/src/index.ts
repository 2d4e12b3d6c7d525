import {
  createLogger,
  createMetrics,
  exitOnStartupError,
  serve,
  startTracing,
} from "@platform/server";
import { createApp } from "./app.ts";
import { appDeps } from "./config.ts";
import { loadEnv } from "./env.ts";

try {
  const env = loadEnv();
  const logger = createLogger({ service: "gateway", level: env.LOG_LEVEL });
  // The gateway's only spans are its requests' and their attempts': no SDK on its thread.
  await startTracing({ service: "gateway", env, logger });
  // Counted only when something can read them: every request pays for the counting.
  const metrics = env.GATEWAY_METRICS_PORT ? createMetrics("gateway") : undefined;
  const deps = appDeps(env, logger, metrics);
  logger.info("routes", {
    healthIntervalMs: deps.healthIntervalMs,
    routes: deps.routes.map(({ upstream, prefixes, target, timeoutMs }) => ({
      upstream,
      prefixes,
      target,
      timeoutMs,
    })),
  });
  const app = createApp(deps);
  await serve(app, {
    metrics,
    metricsPort: env.GATEWAY_METRICS_PORT,
    port: env.GATEWAY_PORT,
    hostname: env.HOST,
    pipelining: env.HTTP_PIPELINING,
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
