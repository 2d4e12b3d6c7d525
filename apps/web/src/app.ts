import { healthRoutes, type Logger, type Metrics, platform } from "@platform/server";
import { Elysia } from "elysia";
import type { Bundle } from "./build/bundle.ts";
import { assets } from "./modules/assets/index.ts";
import { branding } from "./modules/branding/index.ts";
import type { Branding } from "./modules/branding/model.ts";
import { DEFAULT_BRANDING } from "./modules/branding/service.ts";
import { liveReload, type ReloadHub } from "./modules/live-reload/index.ts";
import { pages } from "./modules/pages/index.ts";
import { portal } from "./modules/portal/index.ts";
import { securityHeaders } from "./security.ts";

export type AppDeps = {
  /** Request metrics, served apart by index.ts (none in most tests). */
  metrics?: Metrics;
  logger: Logger;
  /** The current build: a function, so `bun run dev` can swap in a rebuild. */
  bundle: () => Bundle;
  /** Present in development: pages then load the live-reload script. */
  reloads?: ReloadHub;
  /** Whose portal this is; what an unconfigured deployment gets by default. */
  branding?: Branding;
};

export function createApp(deps: AppDeps) {
  const { logger, bundle, reloads } = deps;
  const brand = deps.branding ?? DEFAULT_BRANDING;
  const render = () => ({ bundle: bundle(), liveReload: reloads !== undefined, branding: brand });
  const app = new Elysia()
    // The site takes no request bodies; nothing to parse.
    .use(platform({ service: "web", logger, parseBodies: false, metrics: deps.metrics }))
    .use(securityHeaders())
    .use(healthRoutes("web"))
    .use(branding(brand))
    .use(assets({ bundle }));
  if (reloads) app.use(liveReload(reloads));
  return app.use(portal({ render })).use(pages({ render }));
}

export type App = ReturnType<typeof createApp>;
