import type { AnyElysia } from "elysia";
import { ConfigError } from "../config/env.ts";
import { type Logger, REDACTED, SECRET_KEY, URL_PASSWORD } from "../observability/logger.ts";
import { type Metrics, serveMetrics } from "../observability/metrics.ts";
import { stopTracing } from "../observability/tracing.ts";
import { type Listener, type ListenOptions, listen } from "./listen.ts";
import { listenError } from "./port-holder.ts";
import { HttpProblem } from "./problem.ts";

export type ServeOptions = ListenOptions & {
  logger: Logger;
  shutdownTimeoutMs: number;
  /** Runs after the last in-flight request finished: close pools, stores, timers. */
  onShutdown?: () => Promise<void> | void;
  /** SIGTERM: readiness answers 503 this long before the listener closes (SHUTDOWN_DRAIN_MS). */
  drainMs?: number;
  /** `/metrics` on a port of its own (`metricsPort`, 0: off), for as long as the app runs. */
  metrics?: Metrics;
  metricsPort?: number;
};

/** Readiness probes, whatever the app calls them: /health/ready, /health/ready/, /gateway/health. */
const READINESS = /^\/(health\/ready|gateway\/health)\/?$/;

/**
 * Listens, then on SIGTERM or SIGINT stops accepting connections, lets in-flight requests
 * finish, runs `onShutdown` and exits 0. Past `shutdownTimeoutMs` the stragglers are cut and the
 * exit code is 1, so an orchestrator can tell a clean stop from a forced one. Resolves once
 * listening; a taken port rejects (Bun.serve throws, the pipelining listener reports it).
 */

export async function serve(app: AnyElysia, opts: ServeOptions): Promise<void> {
  const { logger } = opts;
  let draining = false;
  // While draining, readiness says so (every app's probe, answered here before its own, in the
  // app's own problem shape), and everything else is served as usual.
  app.onRequest(({ request }) => {
    if (!draining || !READINESS.test(new URL(request.url).pathname)) return;
    throw new HttpProblem("NOT_READY", {
      detail: "shutting down",
      headers: { "retry-after": "5" },
    });
  });
  let server: Listener;
  try {
    server = await listen(app, opts);
  } catch (error) {
    // Bun's "Is port … in use?" whatever failed: the error names what holds the port instead.
    throw listenError(opts.hostname, opts.port, error);
  }
  logger.info("listening", { url: server.url.href, pipelining: opts.pipelining ?? false });
  const stopMetrics = opts.metrics
    ? serveMetrics(opts.metrics, { port: opts.metricsPort ?? 0, hostname: opts.hostname, logger })
    : () => {};

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal, inFlight: server.pendingRequests() });
    // The drain comes before the shutdown deadline: requests keep coming in while it lasts.
    if (signal === "SIGTERM" && (opts.drainMs ?? 0) > 0) {
      draining = true;
      logger.info("draining", { ms: opts.drainMs });
      await Bun.sleep(opts.drainMs ?? 0);
    }
    const force = setTimeout(async () => {
      logger.error("shutdown timed out; closing open connections", {
        inFlight: server.pendingRequests(),
      });
      await server.stop(true);
      await logger.flush();
      process.exit(1);
    }, opts.shutdownTimeoutMs);
    try {
      await server.stop(false);
      // Elysia writes access-log lines in a setImmediate after each response: let the last
      // ones run before the log is flushed.
      await new Promise((resolve) => setImmediate(resolve));
      await opts.onShutdown?.();
      stopMetrics();
      // The spans still buffered are sent before the process goes.
      await stopTracing();
      clearTimeout(force);
      logger.info("stopped");
      await logger.flush();
      process.exit(0);
    } catch (error) {
      logger.error("shutdown failed", { err: error });
      await logger.flush();
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/**
 * A start-up failure as one JSON line on stderr, in the logs' own shape (a log collector keeps
 * it with the rest), naming each variable at fault and the cause, then exit code 1. The logger
 * may not exist yet: LOG_LEVEL itself can be what is wrong.
 */
export function exitOnStartupError(error: unknown, service: string): never {
  process.stderr.write(`${startupFailureLine(error, service)}\n`);
  process.exit(1);
}

export function startupFailureLine(error: unknown, service: string): string {
  const line: Record<string, unknown> = {
    time: new Date().toISOString(),
    level: "error",
    service,
    msg: "start-up failed",
  };
  if (error instanceof ConfigError && error.variables.length > 0) {
    line.variables = error.variables.map(({ variable, problem, got }) =>
      // A value is shown unless its name says it is a secret (a password is not repeated).
      got === undefined || SECRET_KEY.test(variable)
        ? { variable, problem }
        : { variable, problem, got },
    );
  }
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : undefined;
  line.cause = error instanceof Error ? error.message : String(error);
  if (cause !== undefined) line.detail = cause instanceof Error ? cause.message : String(cause);
  // URLs in a message (a DATABASE_URL) lose their passwords, as every log line's do.
  return JSON.stringify(line).replace(URL_PASSWORD, `$1${REDACTED}@`);
}
