import { healthRoutes, type Logger, type Metrics, platform } from "@platform/server";
import { Elysia } from "elysia";
import { type LeaderboardDeps, leaderboard } from "./modules/leaderboard/index.ts";
import { openApi } from "./openapi.ts";

export type AppDeps = Omit<LeaderboardDeps, "now"> & {
  logger: Logger;
  now?: () => number;
  /** PUBLIC_URL: the `servers` its OpenAPI document names (unset: the caller's own). */
  publicUrl?: string;
  /** Request metrics, served apart by index.ts (none in most tests). */
  metrics?: Metrics;
};

/** Bodies are two short fields; anything near this size is not a score. */
export const MAX_BODY_BYTES = 16 * 1024;

export function createApp(deps: AppDeps) {
  const { store, logger } = deps;
  return new Elysia()
    .use(
      platform({
        service: "leaderboard",
        logger,
        maxJsonBytes: MAX_BODY_BYTES,
        metrics: deps.metrics,
      }),
    )
    .use(openApi({ trustedProxies: deps.trustedProxies, publicUrl: deps.publicUrl }))
    .use(healthRoutes("leaderboard", { store: () => store.ping() }))
    .use(leaderboard({ ...deps, now: deps.now ?? Date.now }));
}

export type App = ReturnType<typeof createApp>;
