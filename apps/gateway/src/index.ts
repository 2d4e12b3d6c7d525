import { runService } from "@platform/server";
import packageJson from "../package.json";
import { createApp } from "./app.ts";
import { appDeps } from "./config.ts";
import { loadEnv } from "./env.ts";

await runService({
  name: "gateway",
  version: packageJson.version,
  loadEnv,
  ports: (env) => ({ port: env.GATEWAY_PORT, metricsPort: env.GATEWAY_METRICS_PORT }),
  // Counted only when something can read them: every request pays for the counting.
  countMetrics: (env) => env.GATEWAY_METRICS_PORT !== 0,
  async start({ env, logger, metrics }) {
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
    return {
      app: createApp(deps),
      // Above every route's limit, so the per-route check answers first with a problem+json 413.
      maxRequestBodySize:
        Math.max(env.GATEWAY_MAX_UPLOAD_BYTES, env.GATEWAY_MAX_BODY_BYTES) + 64 * 1024,
    };
  },
});
