import type { FieldRule } from "@platform/contracts/problem";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Elysia, ValidationError } from "elysia";
import type { Logger } from "../observability/logger.ts";
import { type Metrics, routeLabel } from "../observability/metrics.ts";
import { currentScope, pathOf, requestIdFor } from "../observability/request-scope.ts";
import { endServerSpan } from "../observability/spans.ts";
import { StoreUnavailableError } from "../store/redis.ts";
import { hasBody, isJsonMediaType, readJsonBody } from "./body.ts";
import { HttpProblem, problemResponse } from "./problem.ts";
import { hasInvalidHost } from "./request-target.ts";

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

type ValueIssue = {
  path?: string;
  message: string;
  value?: unknown;
  type?: number;
  schema?: {
    enum?: unknown[];
    format?: string;
    minLength?: number;
    maxLength?: number;
    minimum?: number;
    maximum?: number;
    minItems?: number;
    maxItems?: number;
    anyOf?: { const?: unknown }[];
  };
  /** A union's issues, one iterator per variant (TypeBox). */
  errors?: Iterable<ValueIssue>[];
  /** Set by `innermost`: every variant of the union refused the value's kind. */
  kindRefused?: boolean;
};

/** Errors saying the value is of another kind than the schema (a string where null was asked). */
const KIND_MISMATCH: ReadonlySet<number> = new Set([
  ValueErrorType.Array,
  ValueErrorType.Boolean,
  ValueErrorType.Integer,
  ValueErrorType.Literal,
  ValueErrorType.Null,
  ValueErrorType.Number,
  ValueErrorType.Object,
  ValueErrorType.String,
]);

/**
 * A field of several kinds (a nullable one, text or an object) holding a bad value fails as a
 * whole union ("Expected union value"); what the client needs is why the value failed the
 * variant of its own kind ("Expected string to match …"): the one variant whose errors do not
 * start by refusing the value's kind where the union stands.
 */
function innermost(issue: ValueIssue): ValueIssue {
  if (issue.type !== ValueErrorType.Union || !issue.errors) return issue;
  const variants = issue.errors.map((it) => [...it]);
  const ofItsKind = variants.filter(
    (v) =>
      !v.some((e) => e.path === issue.path && e.type !== undefined && KIND_MISMATCH.has(e.type)),
  );
  const [first] = ofItsKind.length === 1 ? (ofItsKind[0] ?? []) : [];
  if (first) return innermost(first);
  // No variant takes a value of this kind (text where a number or null is asked): its kind is
  // what is wrong, whatever the union's own message says.
  return ofItsKind.length === 0 ? { ...issue, kindRefused: true } : issue;
}

const E = ValueErrorType;
/** Each schema rule TypeBox reports, as the rule code clients say in words, and its bound. */
const RULES: Partial<
  Record<number, [FieldRule, (s: NonNullable<ValueIssue["schema"]>) => unknown]>
> = {
  [E.ObjectRequiredProperty]: ["required", () => undefined],
  [E.StringFormat]: ["format", (s) => s.format],
  [E.StringFormatUnknown]: ["format", (s) => s.format],
  [E.StringPattern]: ["pattern", () => undefined],
  [E.StringMinLength]: ["minLength", (s) => s.minLength],
  [E.StringMaxLength]: ["maxLength", (s) => s.maxLength],
  [E.NumberMinimum]: ["minimum", (s) => s.minimum],
  [E.IntegerMinimum]: ["minimum", (s) => s.minimum],
  [E.NumberExclusiveMinimum]: ["minimum", () => undefined],
  [E.IntegerExclusiveMinimum]: ["minimum", () => undefined],
  [E.NumberMaximum]: ["maximum", (s) => s.maximum],
  [E.IntegerMaximum]: ["maximum", (s) => s.maximum],
  [E.NumberExclusiveMaximum]: ["maximum", () => undefined],
  [E.IntegerExclusiveMaximum]: ["maximum", () => undefined],
  [E.ArrayMinItems]: ["minItems", (s) => s.minItems],
  [E.ArrayMaxItems]: ["maxItems", (s) => s.maxItems],
  [E.ArrayUniqueItems]: ["uniqueItems", () => undefined],
  [E.ObjectAdditionalProperties]: ["unknownField", () => undefined],
  [E.Literal]: ["enum", () => undefined],
};

const KIND_FORMATS: ReadonlySet<string> = new Set(["integer", "numeric", "boolean"]);

/** The rule an issue broke (`type` for a value of another kind), and its bound where it has one. */
function ruleOf(issue: ValueIssue): { rule: FieldRule; limit?: number | string } {
  const literals = issue.schema?.anyOf;
  const oneOfValues = literals?.length && literals.every((option) => option.const !== undefined);
  if (Array.isArray(issue.schema?.enum) || oneOfValues) return { rule: "enum" };
  if (issue.kindRefused) return { rule: "type" };
  const entry = issue.type === undefined ? undefined : RULES[issue.type];
  if (!entry) {
    const kind = issue.type !== undefined && KIND_MISMATCH.has(issue.type);
    // A missing field is reported as a value of the wrong kind (undefined is not a string).
    if (kind && issue.value === undefined) return { rule: "required" };
    return { rule: kind ? "type" : "invalid" };
  }
  const limit = issue.schema ? entry[1](issue.schema) : undefined;
  // Elysia reads numbers and booleans from query strings as strings of these formats: a value
  // failing one is a value of the wrong kind, not a badly written string.
  if (entry[0] === "format" && typeof limit === "string" && KIND_FORMATS.has(limit)) {
    return { rule: "type" };
  }
  return typeof limit === "number" || typeof limit === "string"
    ? { rule: entry[0], limit }
    : { rule: entry[0] };
}

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

/** Anything thrown, as the problem the client sees. Unknown errors never leak their message. */
export function toProblem(code: string | number, error: unknown, request: Request): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof ValidationError) {
    const errors = (error.all as ValueIssue[]).map(innermost).map((e) => ({
      path: `/${error.type}${e.path ?? ""}`,
      message: Array.isArray(e.schema?.enum)
        ? `Expected one of: ${e.schema.enum.join(", ")}`
        : e.message,
      ...ruleOf(e),
    }));
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
      const problem = deferred ?? toProblem(code, error, request);
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

  if (opts.parseBodies === false) return app;
  return (
    app
      .onParse({ as: "global" }, async ({ request, contentType }) => {
        // The APIs speak JSON, plus multipart for file uploads, which falls through to Elysia's
        // own parser (or a route's streaming one). An absent body is left to schema validation.
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
          // count an unreadable body too, or a client could probe for free with broken ones.
          unreadable.set(request, error);
          return {};
        }
      })
      // Validation may already have refused the placeholder body; it is the unreadable body
      // the client is told about (see the onError above).
      .onBeforeHandle({ as: "global" }, ({ request }) => {
        const problem = unreadable.get(request);
        if (problem) throw problem;
      })
  );
}
