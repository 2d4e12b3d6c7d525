import {
  createLogger,
  createMetrics,
  createStore,
  exitOnStartupError,
  parseTrustedProxies,
  serve,
  startTracing,
} from "@platform/server";
import { createApp } from "./app.ts";
import { loadEnv } from "./env.ts";

try {
  const env = loadEnv();
  const logger = createLogger({ service: "leaderboard", level: env.LOG_LEVEL });
  await startTracing({ service: "leaderboard", env, logger });
  const metrics = createMetrics("leaderboard");
  const store = createStore({ redisUrl: env.REDIS_URL, prefix: "leaderboard:" });
  logger.info("starting", { store: store.kind, postsPerMinute: env.LEADERBOARD_RATE_LIMIT });
  const app = createApp({
    metrics,
    store,
    logger,
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    postsPerMinute: env.LEADERBOARD_RATE_LIMIT,
  });
  await serve(app, {
    metrics,
    metricsPort: env.LEADERBOARD_METRICS_PORT,
    port: env.LEADERBOARD_PORT,
    hostname: env.HOST,
    pipelining: env.HTTP_PIPELINING,
    logger,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    drainMs: env.SHUTDOWN_DRAIN_MS,
    // Bun cuts off anything this large outright; below it the app answers a problem+json 413.
    maxRequestBodySize: 1024 * 1024,
    onShutdown: () => store.close(),
  });
} catch (error) {
  exitOnStartupError(error);
}
