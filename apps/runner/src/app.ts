import type { Metrics, SharedStore, TrustedProxies } from "@platform/server";
import { type Logger, platform } from "@platform/server";
import { Elysia } from "elysia";
import { runnerMetrics } from "./metrics.ts";
import { health } from "./modules/health/index.ts";
import { run } from "./modules/run/index.ts";
import { openApi } from "./openapi.ts";
import type { KernelLayers } from "./sandbox/layers.ts";
import type { SandboxRunner } from "./sandbox/runner.ts";

export type AppDeps = {
  /** PUBLIC_URL: the `servers` its OpenAPI document names (unset: the caller's own). */
  publicUrl?: string;
  /** Request metrics, served apart by index.ts (none in most tests). */
  metrics?: Metrics;
  runner: SandboxRunner;
  kernel: KernelLayers;
  store: SharedStore;
  logger: Logger;
  trustedProxies: TrustedProxies;
  runsPerMinute: number;
  now?: () => number;
};

/** A run request is a 1000-character program and a number; anything far larger is not one. */
export const MAX_BODY_BYTES = 16 * 1024;

export function createApp(deps: AppDeps) {
  const { runner, kernel, logger } = deps;
  return new Elysia()
    .use(
      platform({ service: "runner", logger, maxJsonBytes: MAX_BODY_BYTES, metrics: deps.metrics }),
    )
    .use(openApi({ trustedProxies: deps.trustedProxies, publicUrl: deps.publicUrl }))
    .use(health({ runner, kernel }))
    .use(
      run({
        ...deps,
        now: deps.now ?? Date.now,
        countOutcome: deps.metrics && runnerMetrics(deps.metrics, runner),
      }),
    );
}

export type App = ReturnType<typeof createApp>;
