import { createStore, parseTrustedProxies, runService } from "@platform/server";
import packageJson from "../package.json";
import { createApp } from "./app.ts";
import { loadEnv } from "./env.ts";

await runService({
  name: "leaderboard",
  version: packageJson.version,
  loadEnv,
  ports: (env) => ({ port: env.LEADERBOARD_PORT, metricsPort: env.LEADERBOARD_METRICS_PORT }),
  async start({ env, logger, metrics }) {
    const store = createStore({ redisUrl: env.REDIS_URL, prefix: "leaderboard:" });
    logger.info("starting", { store: store.kind, postsPerMinute: env.LEADERBOARD_RATE_LIMIT });
    const app = createApp({
      metrics,
      store,
      logger,
      trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
      publicUrl: env.PUBLIC_URL,
      postsPerMinute: env.LEADERBOARD_RATE_LIMIT,
    });
    // Bun cuts off anything this large outright; below it the app answers a problem+json 413.
    return { app, maxRequestBodySize: 1024 * 1024, onShutdown: () => store.close() };
  },
});
