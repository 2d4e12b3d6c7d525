import type { FieldProblem, FieldRule, Problem } from "@platform/contracts/problem";

/** A problem code's entry: its status, its title and when it is answered (docs/errors.md). */
export type ProblemEntry = { status: number; title: string; description: string };

/**
 * The problems every service can raise, and the codes several apps share: one table of code →
 * status, title and description. A code one app alone uses lives in that app's own table.
 */
export const problemCatalog = {
  BAD_REQUEST: { status: 400, title: "Bad request", description: "Any other malformed request." },
  MALFORMED_JSON: {
    status: 400,
    title: "Malformed JSON",
    description: "The body is not valid JSON (or not UTF-8, or empty while labelled JSON).",
  },
  UNAUTHORIZED: {
    status: 401,
    title: "Authentication required",
    description: "No or bad credentials.",
  },
  FORBIDDEN: { status: 403, title: "Forbidden", description: "Authenticated but not allowed." },
  NOT_FOUND: {
    status: 404,
    title: "Not found",
    description: "Unknown route or resource (wrong methods are 404 too).",
  },
  CONFLICT: {
    status: 409,
    title: "Conflict",
    description: "State conflict; features use more specific codes with this status.",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: "Payload too large",
    description:
      "A body over the route's limit; decided from Content-Length up front or while streaming, never by buffering the whole body.",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: "Unsupported media type",
    description:
      "A body that is not JSON (`application/json` or `+json`, any charset); multipart is accepted only where uploads are.",
  },
  VALIDATION_FAILED: {
    status: 422,
    title: "Validation failed",
    description:
      "The JSON does not match the schema, or a field breaks a rule (e.g. a player name); `errors` lists every field problem.",
  },
  RATE_LIMITED: {
    status: 429,
    title: "Too many requests",
    description:
      "Over a per-client limit; with `Retry-After` and the IETF `RateLimit` / `RateLimit-Policy` headers.",
  },
  INTERNAL_ERROR: {
    status: 500,
    title: "Internal server error",
    description: "Anything unexpected (logged with its stack under the request id).",
  },
  BAD_GATEWAY: {
    status: 502,
    title: "Bad gateway",
    description:
      "The gateway could not reach the upstream (down, refused, connection dropped); `upstream` and `reason` say which and why.",
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    title: "Service unavailable",
    description:
      "A backing service (a database, Redis, object storage) is unreachable, with `Retry-After: 5`; the bench also answers it when its queue is full.",
  },
  // Every app has a readiness probe (`healthRoutes`, admissions' store probe).
  NOT_READY: {
    status: 503,
    title: "Not ready",
    description: "A readiness probe failed; `checks` says which dependency.",
  },
  GATEWAY_TIMEOUT: {
    status: 504,
    title: "Gateway timeout",
    description: "The upstream did not send its response headers within the route's timeout.",
  },
} as const satisfies Record<string, ProblemEntry>;

export type GenericProblemCode = keyof typeof problemCatalog;

type ProblemInit = {
  detail: string;
  errors?: FieldProblem[];
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
  /** RFC 9457 extension members, e.g. the failing checks of a readiness probe. */
  extensions?: Record<string, unknown>;
};

/**
 * The one error type services throw. Generic codes take their status and title from the
 * catalog; a feature-specific code (e.g. ILLEGAL_TRANSITION) names its own status and title.
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly errors: FieldProblem[] | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly extensions: Record<string, unknown> | undefined;

  constructor(
    code: GenericProblemCode | { code: string; status: number; title: string },
    init: ProblemInit,
  ) {
    super(init.detail);
    const resolved = typeof code === "string" ? { code, ...problemCatalog[code] } : code;
    this.name = "HttpProblem";
    this.code = resolved.code;
    this.status = resolved.status;
    this.title = resolved.title;
    this.errors = init.errors;
    this.headers = init.headers;
    this.extensions = init.extensions;
  }
}

export const problemType = (code: string): string =>
  `/problems/${code.toLowerCase().replaceAll("_", "-")}`;

export function toProblemBody(problem: HttpProblem, requestId: string): Problem {
  return {
    ...problem.extensions,
    type: problemType(problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.message,
    code: problem.code,
    requestId,
    ...(problem.errors ? { errors: problem.errors } : {}),
  };
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export function problemResponse(problem: HttpProblem, requestId: string): Response {
  const headers = new Headers(problem.headers);
  headers.set("content-type", PROBLEM_CONTENT_TYPE);
  headers.set("x-request-id", requestId);
  return new Response(JSON.stringify(toProblemBody(problem, requestId)), {
    status: problem.status,
    headers,
  });
}

/**
 * A 422 naming one field; the shape the built-in schema validation produces too. `rule` is what
 * a client says in its reader's words (the message is English, for developers).
 */
export function invalidField(
  path: string,
  message: string,
  rule: FieldRule = "invalid",
  limit?: number | string,
): HttpProblem {
  return new HttpProblem("VALIDATION_FAILED", {
    detail: `Invalid request: ${path} ${message}`,
    errors: [{ path, message, rule, ...(limit === undefined ? {} : { limit }) }],
  });
}
