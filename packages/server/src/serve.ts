import type { AnyElysia } from "elysia";
import type { Logger } from "./logger.ts";
import { type Metrics, serveMetrics } from "./metrics.ts";
import { listenError } from "./port-holder.ts";
import { HttpProblem } from "./problem.ts";
import { inRequestScope, stopTracing } from "./tracing.ts";

export type ServeOptions = {
  port: number;
  hostname: string;
  logger: Logger;
  shutdownTimeoutMs: number;
  /** Bun refuses bodies past this before the app sees them. */
  maxRequestBodySize?: number;
  /** Runs after the last in-flight request finished: close pools, stores, timers. */
  onShutdown?: () => Promise<void> | void;
  /** SIGTERM: readiness answers 503 this long before the listener closes (SHUTDOWN_DRAIN_MS). */
  drainMs?: number;
  /** `/metrics` on a port of its own (`metricsPort`, 0: off), for as long as the app runs. */
  metrics?: Metrics;
  metricsPort?: number;
};

/**
 * Listens, then on SIGTERM or SIGINT stops accepting connections, lets in-flight requests
 * finish, runs `onShutdown` and exits 0. Past `shutdownTimeoutMs` the stragglers are cut and the
 * exit code is 1, so an orchestrator can tell a clean stop from a forced one.
 */
/** Readiness probes, whatever the app calls them: /health/ready, /health/ready/, /gateway/health. */
const READINESS = /^\/(health\/ready|gateway\/health)\/?$/;

export function serve(app: AnyElysia, opts: ServeOptions): void {
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
  // Bun.serve directly, not app.listen(): every request has to run inside its scope (request id
  // for the logs, the trace's server span), and listen() hands most routes to Bun's own router,
  // past any wrapper of app.fetch. app.fetch is what the tests drive (app.handle), so this is
  // also the code path they check.
  const listen = () =>
    Bun.serve({
      port: opts.port,
      hostname: opts.hostname,
      // Elysia turns SO_REUSEPORT on by default: a second copy started by mistake would silently
      // share the port and take half the traffic. A taken port is a start-up error instead,
      // which names what holds it (port-holder.ts).
      reusePort: false,
      // Elysia's listen() default (Bun's own is 10 s).
      idleTimeout: 30,
      ...(opts.maxRequestBodySize ? { maxRequestBodySize: opts.maxRequestBodySize } : {}),
      fetch: scopedFetch(app),
    });
  let server: ReturnType<typeof listen>;
  try {
    server = listen();
  } catch (error) {
    throw listenError(opts.hostname, opts.port, error);
  }
  // What listen() would do: handlers read the server (client address), plugins start timers.
  app.server = server;
  for (const hook of app.event.start ?? []) void hook.fn(app);
  logger.info("listening", { url: server.url.href });
  const stopMetrics = opts.metrics
    ? serveMetrics(opts.metrics, { port: opts.metricsPort ?? 0, hostname: opts.hostname, logger })
    : () => {};

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal, inFlight: server.pendingRequests });
    // The drain comes before the shutdown deadline: requests keep coming in while it lasts.
    if (signal === "SIGTERM" && (opts.drainMs ?? 0) > 0) {
      draining = true;
      logger.info("draining", { ms: opts.drainMs });
      await Bun.sleep(opts.drainMs ?? 0);
    }
    const force = setTimeout(async () => {
      logger.error("shutdown timed out; closing open connections", {
        inFlight: server.pendingRequests,
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

/** The app's fetch, each request run inside its scope (request-scope.ts, tracing.ts). */
export function scopedFetch(app: AnyElysia): (request: Request) => Response | Promise<Response> {
  const handle = app.fetch;
  return (request) => inRequestScope(request, () => handle(request));
}

/** Prints a start-up failure (usually bad configuration) plainly and exits non-zero. */
export function exitOnStartupError(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
