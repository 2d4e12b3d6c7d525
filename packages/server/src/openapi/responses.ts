import { problemType } from "../http/problem.ts";
import type { ComponentRegistry } from "./components.ts";
import { headersOf, problemCodesOf } from "./declare.ts";
import { headerRef, RATE_LIMIT_CODE, RETRY_AFTER_STATUSES } from "./headers.ts";
import { isObject, type JsonSchema, toJsonSchema } from "./json-schema.ts";

export type ProblemTable = Record<string, { status: number; title: string; description?: string }>;

/** One request id for every example: a UUIDv7, as the platform makes them. */
const EXAMPLE_REQUEST_ID = "01929b2e-6f4c-7a3e-9d2b-5c8e1f0a4b7d";

/**
 * An example answer of one code, as a client would receive it: the code's own title, its
 * description standing in for the detail, and for a 422 a problem with `field` (a JSON Pointer
 * to one of the operation's own parameters or body fields).
 */
function problemExample(code: string, status: string, table: ProblemTable, field: string) {
  const entry = table[code];
  const detail = entry?.description ?? entry?.title ?? code;
  return {
    summary: entry?.title ?? code,
    value: {
      type: problemType(code),
      title: entry?.title ?? code,
      status: Number(status),
      detail,
      code,
      requestId: EXAMPLE_REQUEST_ID,
      ...(code === "VALIDATION_FAILED" && {
        errors: [{ path: field, message: "Expected string length greater or equal to 1" }],
      }),
    },
  };
}

const STATUS_TEXT: Record<string, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
};

/** A route's `response` option as status → schema (a lone schema is the 200). */
export function responseMap(response: unknown): Record<string, unknown> {
  if (response === undefined) return {};
  if (isObject(response) && ("type" in response || "anyOf" in response || "$ref" in response)) {
    return { 200: response };
  }
  if (isObject(response) && Object.keys(response).every((key) => /^\d{3}$/.test(key))) {
    return response;
  }
  return { 200: response };
}

/** The problem codes the route's error responses were declared with (declare.ts). */
export const declaredCodes = (declared: Record<string, unknown>) =>
  Object.values(declared).flatMap((schema) => [...problemCodesOf(schema)]);

/**
 * An operation's responses: its success schemas with the headers they declare, one problem
 * response per error status with every code in `codes`, the route's hand-written `responses`
 * over those, and the platform's headers on all of them.
 */
export function responsesOf(
  declared: Record<string, unknown>,
  codes: ReadonlySet<string>,
  handWritten: Record<string, object>,
  context: {
    registry: ComponentRegistry;
    problems: ProblemTable;
    problemRef: JsonSchema;
    /** A field of the operation's request, for the 422's example. */
    field: string;
  },
) {
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(declared)) {
    if (Number(status) >= 400) continue;
    const json = schema === undefined ? undefined : toJsonSchema(schema);
    responses[status] = {
      description:
        (json && typeof json.description === "string" && json.description) ||
        (STATUS_TEXT[status] ?? "Success"),
      headers: Object.fromEntries(headersOf(schema).map((name) => [name, headerRef(name)])),
      ...(json &&
        Object.keys(json).length > 0 && {
          content: { "application/json": { schema: context.registry.refer(json) } },
        }),
    };
  }
  for (const [status, listed] of byStatus([...codes], context.problems)) {
    responses[status] = problemResponse(status, listed, context);
  }
  for (const [status, response] of Object.entries(handWritten)) {
    responses[status] = { ...(responses[status] as object), ...response };
  }
  return Object.fromEntries(
    Object.entries(responses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, response]) => [status, withPlatformHeaders(response, codes)]),
  );
}

function byStatus(codes: string[], table: ProblemTable): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const code of codes.sort()) {
    const status = String(table[code]?.status ?? 500);
    out.set(status, [...(out.get(status) ?? []), code]);
  }
  return out;
}

/** One error status of an operation: the problem body, its `code` narrowed to those listed. */
function problemResponse(
  status: string,
  codes: string[],
  {
    problems: table,
    problemRef,
    field,
  }: { problems: ProblemTable; problemRef: JsonSchema; field: string },
) {
  const retry = RETRY_AFTER_STATUSES.has(status);
  return {
    description: codes.map((code) => `\`${code}\`: ${table[code]?.title ?? code}`).join("; "),
    ...(retry && { headers: { "Retry-After": headerRef("Retry-After") } }),
    content: {
      "application/problem+json": {
        schema: {
          allOf: [
            problemRef,
            { type: "object", required: ["code"], properties: { code: { enum: codes } } },
          ],
        },
        examples: Object.fromEntries(
          codes.map((code) => [code, problemExample(code, status, table, field)]),
        ),
      },
    },
  };
}

/** X-Request-Id on every answer; the quota on every answer of a rate-limited operation. */
function withPlatformHeaders(response: unknown, codes: ReadonlySet<string>) {
  const base = isObject(response) ? response : {};
  const headers: Record<string, unknown> = {
    "X-Request-Id": headerRef("X-Request-Id"),
    ...(isObject(base.headers) ? base.headers : {}),
  };
  if (codes.has(RATE_LIMIT_CODE)) {
    headers["RateLimit-Policy"] = headerRef("RateLimit-Policy");
    headers.RateLimit = headerRef("RateLimit");
  }
  return { ...base, headers };
}
