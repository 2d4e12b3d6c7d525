import { type Logger, platform, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { health } from "./modules/health/index.ts";
import { proxy } from "./modules/proxy/index.ts";
import type { Route } from "./modules/proxy/model.ts";

export type AppDeps = {
  routes: Route[];
  trustedProxies: TrustedProxies;
  logger: Logger;
  probeTimeoutMs?: number;
};

export function createApp(deps: AppDeps) {
  return (
    new Elysia()
      // Bodies stream through untouched: the gateway never parses them.
      .use(platform({ service: "gateway", logger: deps.logger, parseBodies: false }))
      .use(health(deps))
      .use(proxy(deps))
  );
}

export type App = ReturnType<typeof createApp>;
