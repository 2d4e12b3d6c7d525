import { healthRoutes, type Logger, type Metrics, platform } from "@platform/server";
import { Elysia } from "elysia";
import { benchMetrics } from "./metrics.ts";
import { type BenchmarkDeps, benchmark } from "./modules/benchmark/index.ts";
import { openApi } from "./openapi.ts";

export type AppDeps = Omit<BenchmarkDeps, "now" | "logger"> & {
  logger: Logger;
  /** PUBLIC_URL: the `servers` its OpenAPI document names (unset: the caller's own). */
  publicUrl?: string;
  /** Request metrics, served apart by index.ts (none in most tests). */
  metrics?: Metrics;
  now?: () => number;
};

/** The body is one short field; anything near this size is not a benchmark request. */
export const MAX_BODY_BYTES = 4 * 1024;

export function createApp(deps: AppDeps) {
  const { store, logger } = deps;
  return new Elysia()
    .use(
      platform({ service: "bench", logger, maxJsonBytes: MAX_BODY_BYTES, metrics: deps.metrics }),
    )
    .use(openApi({ trustedProxies: deps.trustedProxies, publicUrl: deps.publicUrl }))
    .use(healthRoutes("bench", { store: () => store.ping() }))
    .use(
      benchmark({
        ...deps,
        now: deps.now ?? Date.now,
        countRun: deps.metrics && benchMetrics(deps.metrics, deps.runner),
      }),
    );
}

export type App = ReturnType<typeof createApp>;
