import type { FieldProblem, Problem } from "@platform/contracts/problem";

/**
 * The problems every service can raise, and the codes several apps share: one table of code →
 * status and title. A code one app alone uses lives in that app's own table.
 */
export const problemCatalog = {
  BAD_REQUEST: { status: 400, title: "Bad request" },
  MALFORMED_JSON: { status: 400, title: "Malformed JSON" },
  UNAUTHORIZED: { status: 401, title: "Authentication required" },
  FORBIDDEN: { status: 403, title: "Forbidden" },
  NOT_FOUND: { status: 404, title: "Not found" },
  CONFLICT: { status: 409, title: "Conflict" },
  PAYLOAD_TOO_LARGE: { status: 413, title: "Payload too large" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: "Unsupported media type" },
  VALIDATION_FAILED: { status: 422, title: "Validation failed" },
  RATE_LIMITED: { status: 429, title: "Too many requests" },
  INTERNAL_ERROR: { status: 500, title: "Internal server error" },
  BAD_GATEWAY: { status: 502, title: "Bad gateway" },
  SERVICE_UNAVAILABLE: { status: 503, title: "Service unavailable" },
  /** A readiness probe failed; every app has one (`healthRoutes`, admissions' store probe). */
  NOT_READY: { status: 503, title: "Not ready" },
  GATEWAY_TIMEOUT: { status: 504, title: "Gateway timeout" },
} as const satisfies Record<string, { status: number; title: string }>;

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

/** A 422 naming one field; the shape the built-in schema validation produces too. */
export function invalidField(path: string, message: string): HttpProblem {
  return new HttpProblem("VALIDATION_FAILED", {
    detail: `Invalid request: ${path} ${message}`,
    errors: [{ path, message }],
  });
}
