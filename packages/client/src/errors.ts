import type { components } from "./schema.js";

/** The one error body of every service (RFC 9457 problem details with a stable `code`). */
export type Problem = components["schemas"]["Problem"];

/** No answer at all: the connection failed, was cut, or the request timed out. */
export const NETWORK_ERROR = "NETWORK_ERROR";
/** An answer that is not the platform's problem+json (a proxy's HTML page, say). */
export const UNEXPECTED_RESPONSE = "UNEXPECTED_RESPONSE";

const isProblem = (body: unknown): body is Problem =>
  typeof body === "object" &&
  body !== null &&
  typeof (body as { code?: unknown }).code === "string" &&
  typeof (body as { status?: unknown }).status === "number";

/**
 * Every failure the client reports, one class: an error answer carries its problem (`code`,
 * `status`, `requestId`, the whole `problem`), a network failure has `code` NETWORK_ERROR,
 * `status` 0 and the original error as `cause`. `requestId` is what to quote to an operator:
 * every log line of the request carries it.
 */
export class PlatformError extends Error {
  override name = "PlatformError";
  readonly code: string;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly problem: Problem | undefined;

  constructor(
    init: { code: string; status: number; message: string; requestId?: string; problem?: Problem },
    options?: ErrorOptions,
  ) {
    super(init.message, options);
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.problem = init.problem;
  }

  /** An error answer (`error` and `response` of a call) as a PlatformError. */
  static fromResponse(body: unknown, response: Response): PlatformError {
    const requestId = response.headers.get("x-request-id") ?? undefined;
    if (isProblem(body)) {
      return new PlatformError({
        code: body.code,
        status: response.status,
        message: `${body.code}: ${body.detail}`,
        requestId: body.requestId ?? requestId,
        problem: body,
      });
    }
    return new PlatformError({
      code: UNEXPECTED_RESPONSE,
      status: response.status,
      message: `${response.status} ${response.statusText || "answer"} without a problem body`,
      requestId,
    });
  }

  /** A request that got no answer. */
  static network(request: Request, cause: unknown): PlatformError {
    const why = cause instanceof Error ? cause.message : String(cause);
    return new PlatformError(
      { code: NETWORK_ERROR, status: 0, message: `${request.method} ${request.url}: ${why}` },
      { cause },
    );
  }
}

/**
 * A call's data, or its error thrown as a PlatformError: for code that would rather catch than
 * test `error` after every call. `const me = orThrow(await api.GET("/api/v1/auth/me/"))`.
 */
export function orThrow<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    throw PlatformError.fromResponse(result.error, result.response);
  }
  return result.data as T;
}
