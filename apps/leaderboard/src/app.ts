import { healthRoutes, type Logger, platform } from "@platform/server";
import { Elysia } from "elysia";
import { type LeaderboardDeps, leaderboard } from "./modules/leaderboard/index.ts";

export type AppDeps = Omit<LeaderboardDeps, "now"> & { logger: Logger; now?: () => number };

/** Bodies are two short fields; anything near this size is not a score. */
export const MAX_BODY_BYTES = 16 * 1024;

export function createApp(deps: AppDeps) {
  const { store, logger } = deps;
  return new Elysia()
    .use(platform({ service: "leaderboard", logger, maxJsonBytes: MAX_BODY_BYTES }))
    .use(healthRoutes("leaderboard", { store: () => store.ping() }))
    .use(leaderboard({ ...deps, now: deps.now ?? Date.now }));
}

export type App = ReturnType<typeof createApp>;
