/**
 * Every app's start-up, once: read the environment, make the logger, turn tracing on when an
 * endpoint is set, make the metrics, let the app build itself, then serve it until SIGTERM or
 * SIGINT. A failure on the way (bad configuration, a database that does not answer) is one JSON
 * line naming what failed, and exit code 1. An app's `src/index.ts` is a `runService` call.
 */
import type { AnyElysia } from "elysia";
import type { TracingEnv } from "./config/env.ts";
import { exitOnStartupError, serve } from "./http/serve.ts";
import { createLogger, type Logger, type LogLevel } from "./observability/logger.ts";
import { createMetrics, type Metrics } from "./observability/metrics.ts";
import { startTracing } from "./observability/tracing.ts";

/** What runService reads of an app's environment (commonEnv has it all). */
type ServiceEnv = TracingEnv & {
  LOG_LEVEL: LogLevel;
  HOST: string;
  SHUTDOWN_TIMEOUT_MS: number;
  SHUTDOWN_DRAIN_MS: number;
  HTTP_PIPELINING: boolean;
};

export type Started = {
  app: AnyElysia;
  /** Bodies past this are cut off by the listener before the app sees them. */
  maxRequestBodySize: number;
  /** Runs after the last in-flight request finished: close pools, stores, timers. */
  onShutdown?: () => Promise<void> | void;
};

export type ServiceSpec<E extends ServiceEnv> = {
  /** The app's name: its logs' and spans' `service`, its metrics' label. */
  name: string;
  /** The app's version (package.json): `service.version` on its spans. */
  version: string;
  loadEnv: () => E;
  /** The API's port and the metrics' (0: off). */
  ports: (env: E) => { port: number; metricsPort: number };
  /** Whether requests are counted at all; by default they are. */
  countMetrics?: (env: E) => boolean;
  start: (ready: { env: E; logger: Logger; metrics: Metrics | undefined }) => Promise<Started>;
};

export async function runService<E extends ServiceEnv>(spec: ServiceSpec<E>): Promise<void> {
  try {
    const env = spec.loadEnv();
    const logger = createLogger({ service: spec.name, level: env.LOG_LEVEL });
    await startTracing({ service: spec.name, version: spec.version, env, logger });
    const counted = spec.countMetrics?.(env) ?? true;
    const metrics = counted ? createMetrics(spec.name) : undefined;
    const started = await spec.start({ env, logger, metrics });
    const { port, metricsPort } = spec.ports(env);
    await serve(started.app, {
      port,
      hostname: env.HOST,
      pipelining: env.HTTP_PIPELINING,
      maxRequestBodySize: started.maxRequestBodySize,
      logger,
      shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
      drainMs: env.SHUTDOWN_DRAIN_MS,
      metrics,
      metricsPort,
      ...(started.onShutdown ? { onShutdown: started.onShutdown } : {}),
    });
  } catch (error) {
    exitOnStartupError(error, spec.name);
  }
}
