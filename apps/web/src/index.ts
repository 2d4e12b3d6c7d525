import { watch } from "node:fs";
import { runService } from "@platform/server";
import packageJson from "../package.json";
import { createApp } from "./app.ts";
import { buildClient, CLIENT_DIR } from "./build/bundle.ts";
import { loadEnv } from "./env.ts";
import { brandingOf } from "./modules/branding/service.ts";
import { createReloadHub } from "./modules/live-reload/index.ts";

// `bun run dev` passes --dev: unminified bundle with source maps, rebuilt and live-reloaded on
// every change under src/client. `bun run start` (and the Docker image) builds for production.
const dev = process.argv.includes("--dev");

await runService({
  name: "web",
  version: packageJson.version,
  loadEnv,
  ports: (env) => ({ port: env.WEB_PORT, metricsPort: env.WEB_METRICS_PORT }),
  async start({ env, logger, metrics }) {
    const started = performance.now();
    let bundle = await buildClient({ production: !dev });
    logger.info("built", {
      assets: bundle.assets.size,
      ms: Math.round(performance.now() - started),
      production: !dev,
    });
    const reloads = dev ? createReloadHub() : undefined;
    if (reloads) {
      let pending: ReturnType<typeof setTimeout> | undefined;
      watch(CLIENT_DIR, { recursive: true }, () => {
        // Editors write a file in several steps: build once they are done.
        clearTimeout(pending);
        pending = setTimeout(async () => {
          try {
            bundle = await buildClient({ production: false });
            reloads.notify();
            logger.info("rebuilt", { assets: bundle.assets.size });
          } catch (error) {
            logger.error("rebuild failed; serving the previous build", { err: error });
          }
        }, 50);
      });
    }
    const app = createApp({
      logger,
      bundle: () => bundle,
      reloads,
      metrics,
      branding: brandingOf(env),
    });
    return { app, maxRequestBodySize: 64 * 1024 };
  },
});
