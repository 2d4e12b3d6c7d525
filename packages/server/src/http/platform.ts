import { type AnyElysia, Elysia, ValidationError } from "elysia";
import type { Logger } from "../observability/logger.ts";
import { type Metrics, routeLabel } from "../observability/metrics.ts";
import { currentScope, pathOf, requestIdFor } from "../observability/request-scope.ts";
import { endServerSpan } from "../observability/spans.ts";
import { StoreUnavailableError } from "../store/redis.ts";
import { hasBody, isJsonMediaType, readJsonBody } from "./body.ts";
import { HttpProblem, problemResponse } from "./problem.ts";
import { hasInvalidHost } from "./request-target.ts";
import { fieldProblems, type RequestSchemas } from "./validation.ts";

export type PlatformOptions = {
  service: string;
  logger: Logger;
  /** Largest JSON body accepted (413 past it). */
  maxJsonBytes?: number;
  /** Off for the gateway, which streams bodies through untouched. */
  parseBodies?: boolean;
  /** Request counts, durations and problem codes go here when given (metrics.ts). */
  metrics?: Metrics;
};

export { requestIdFor };

/**
 * PostgreSQL is not there (refused, closed, shutting down or starting up): the request may
 * succeed in a moment, so 503 with Retry-After, not a 500. Bun.SQL's own connection codes, and
 * SQLSTATE classes 08 (connection exception) and 57P0x (admin, crash or cannot-connect-now
 * shutdowns). Failed queries (constraints, syntax) stay what they are.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== "PostgresError") return false;
  const { code, errno } = error as Error & { code?: unknown; errno?: unknown };
  if (typeof code === "string" && /^ERR_POSTGRES_(CONNECTION_|.*TIMEOUT|IDLE)/.test(code))
    return true;
  return typeof errno === "string" && /^(08|57P0)/.test(errno);
}

/**
 * Anything thrown, as the problem the client sees. Unknown errors never leak their message.
 * `route` is the matched route's pattern, which names the path parameters.
 */
export function toProblem(
  code: string | number,
  error: unknown,
  request: Request,
  route?: string,
  schemas?: RequestSchemas,
): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof ValidationError) {
    const errors = fieldProblems(error, request, route, schemas);
    const first = errors[0];
    return new HttpProblem("VALIDATION_FAILED", {
      detail: first ? `Invalid request: ${first.path} ${first.message}` : "Invalid request",
      errors,
    });
  }
  if (error instanceof StoreUnavailableError || isDatabaseUnavailable(error)) {
    return new HttpProblem("SERVICE_UNAVAILABLE", {
      detail: "A backing service is unavailable; try again shortly",
      headers: { "retry-after": "5" },
    });
  }
  switch (code) {
    case "PARSE": {
      const cause = error instanceof Error ? error.cause : undefined;
      return cause instanceof HttpProblem
        ? cause
        : new HttpProblem("MALFORMED_JSON", { detail: "The request body could not be parsed" });
    }
    case "NOT_FOUND":
      return new HttpProblem("NOT_FOUND", {
        detail: `No resource at ${request.method} ${new URL(request.url).pathname}`,
      });
    case "INVALID_COOKIE_SIGNATURE":
      return new HttpProblem("UNAUTHORIZED", { detail: "The session cookie is invalid" });
    case "INVALID_FILE_TYPE":
      return new HttpProblem("UNSUPPORTED_MEDIA_TYPE", { detail: "The file type is not accepted" });
    default:
      return new HttpProblem("INTERNAL_ERROR", { detail: "An unexpected error occurred" });
  }
}

/**
 * A readiness problem's failing checks (name → why), for its access-log line: an orchestrator's
 * probe shows only the status, and the operator reading the log must learn which dependency
 * failed, and how, without calling the probe by hand.
 */
function failingChecks(checks: unknown): Record<string, unknown> | undefined {
  if (typeof checks !== "object" || checks === null) return undefined;
  const failing = Object.entries(checks).filter(([, result]) => result !== "ok");
  return failing.length > 0 ? Object.fromEntries(failing) : undefined;
}

/**
 * The plumbing every app shares, as one plugin: request ids, one JSON access-log line per
 * request, strict JSON bodies (415 / 400 / 413) and one problem+json shape for every error.
 */
export function platform(opts: PlatformOptions) {
  const { logger, service, metrics } = opts;
  const maxJsonBytes = opts.maxJsonBytes ?? 64 * 1024;
  const startedAt = new WeakMap<Request, number>();
  /** The problem a request was answered with, for its access-log line (why it failed). */
  const answeredWith = new WeakMap<Request, { code: string; reason?: unknown }>();
  /** A body that could not be read (415, 413, 400), until the route's early hooks have run. */
  const unreadable = new WeakMap<Request, HttpProblem>();
  /** The app this plugin is used by, whose routes hold their own query and path schemas. */
  let host: AnyElysia | undefined;
  const schemasOf = (method: string, route: string | undefined): RequestSchemas => {
    const found = host?.routes.find((r) => r.method === method && r.path === route);
    return { query: found?.hooks.query, params: found?.hooks.params };
  };

  const app = new Elysia({ name: "platform", seed: service })
    .onRequest(({ request, set }) => {
      startedAt.set(request, performance.now());
      // serve() opened the request's scope with its id; tests calling app.handle() did not.
      set.headers["x-request-id"] = currentScope()?.requestId ?? requestIdFor(request);
      // RFC 9112 §3.2: an HTTP/1.1 Host that is empty or no host name is answered 400.
      if (hasInvalidHost(request)) {
        throw new HttpProblem("BAD_REQUEST", {
          detail: "The Host header is empty or not a host name",
        });
      }
    })
    .onError({ as: "global" }, ({ code, error, request, set, route }) => {
      const deferred = error instanceof ValidationError ? unreadable.get(request) : undefined;
      const problem =
        deferred ?? toProblem(code, error, request, route, schemasOf(request.method, route));
      metrics?.problems.inc({ code: problem.code, route: routeLabel(route) });
      const requestId = String(set.headers["x-request-id"] ?? requestIdFor(request));
      if (problem.status >= 500 && problem.code === "INTERNAL_ERROR") {
        logger.error("unhandled error", { requestId, err: error });
      } else if (problem.code === "SERVICE_UNAVAILABLE" && !(error instanceof HttpProblem)) {
        // The client sees a generic 503; the log keeps which backing service failed, and how.
        logger.warn("backing service unavailable", { requestId, err: error });
      }
      set.status = problem.status;
      answeredWith.set(request, {
        code: problem.code,
        reason: problem.extensions?.reason ?? failingChecks(problem.extensions?.checks),
      });
      return problemResponse(problem, requestId);
    })
    .onAfterResponse({ as: "global" }, ({ request, set, responseValue, route }) => {
      const start = startedAt.get(request);
      const status = responseValue instanceof Response ? responseValue.status : set.status;
      if (metrics && start !== undefined) {
        const seconds = (performance.now() - start) / 1000;
        metrics.recordRequest(request.method, routeLabel(route), String(status), seconds);
      }
      const problem = answeredWith.get(request);
      endServerSpan(currentScope(), request, route, status);
      logger.info("request", {
        method: request.method,
        path: pathOf(request.url),
        status,
        ...(problem && { problem: problem.code }),
        ...(problem?.reason !== undefined && { reason: problem.reason }),
        durationMs:
          start === undefined ? null : Math.round((performance.now() - start) * 1000) / 1000,
        requestId: set.headers["x-request-id"],
      });
    });

  const plugin =
    opts.parseBodies === false
      ? app
      : app
          .onParse({ as: "global" }, async ({ request, contentType }) => {
            // The APIs speak JSON, plus multipart for file uploads, which falls through to
            // Elysia's own parser (or a route's streaming one). An absent body is left to schema
            // validation.
            if (!hasBody(request)) return undefined;
            try {
              if (isJsonMediaType(contentType)) return await readJsonBody(request, maxJsonBytes);
              if (contentType === "multipart/form-data") return undefined;
              throw new HttpProblem("UNSUPPORTED_MEDIA_TYPE", {
                detail: `Content-Type must be application/json (got ${contentType ? `"${contentType}"` : "none"})`,
              });
            } catch (error) {
              if (!(error instanceof HttpProblem)) throw error;
              // Answered once the route's own early hooks have run: Elysia runs this app-wide
              // parser before any route hook, and a route's `ip` rate limit (a transform) must
              // count an unreadable body too, or a client could probe for free with broken
              // ones.
              unreadable.set(request, error);
              return {};
            }
          })
          // Validation may already have refused the placeholder body; it is the unreadable body
          // the client is told about (see the onError above).
          .onBeforeHandle({ as: "global" }, ({ request }) => {
            const problem = unreadable.get(request);
            if (problem) throw problem;
          });

  // A function plugin, to know the app it is used by: a coerced query or path number that fails
  // its range names no parameter, and the route's schemas tell which it was (validation.ts).
  return <Host extends AnyElysia>(parent: Host) => {
    host = parent;
    return parent.use(plugin);
  };
}
