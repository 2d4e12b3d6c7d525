import { FieldProblem, Problem } from "@platform/contracts/problem";
import { HealthReport } from "../health.ts";
import { componentRegistry } from "./components.ts";
import { headersOf, problemCodesOf } from "./declare.ts";
import { HEADER_COMPONENTS, headerRef, RATE_LIMIT_CODE, RETRY_AFTER_STATUSES } from "./headers.ts";
import { isObject, type JsonSchema, parameterSchema, toJsonSchema } from "./json-schema.ts";

/** What the builder reads of an Elysia route (`app.routes`). */
export type RouteInfo = {
  method: string;
  path: string;
  hooks: {
    body?: unknown;
    query?: unknown;
    params?: unknown;
    headers?: unknown;
    response?: unknown;
    parse?: unknown;
    detail?: object;
  };
};

type Parameter = { name: string; in: string };
type ProblemTable = Record<string, { status: number; title: string }>;

export type DocumentOptions = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  securitySchemes?: Record<string, unknown>;
  /** Model modules whose PascalCase TypeBox exports become `components.schemas` (components.ts). */
  models: Record<string, Record<string, unknown>>;
  /** Every code the app answers with, generic and its own: status and title per code. */
  problems: ProblemTable;
  /** Codes an operation answers with that its options imply (credentials, backing services). */
  impliedProblems?: (route: RouteInfo, detail: Operation) => readonly string[];
};

export type Operation = { [key: string]: unknown; security?: Record<string, string[]>[] };
export type OpenApiDocument = {
  openapi: string;
  info: object;
  servers?: { url: string; description?: string }[];
  tags?: object[];
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

const JSON_BODY_PROBLEMS = [
  "MALFORMED_JSON",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "VALIDATION_FAILED",
];
const STATUS_TEXT: Record<string, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
};
const METHODS = new Set(["get", "put", "post", "delete", "patch", "head"]);

/** `post /api/v1/catalog/programs/:id/` → `postApiV1CatalogProgramsById` (unique per route). */
function operationIdOf(method: string, path: string): string {
  const words = path.split(/[/\-_.]/).filter(Boolean);
  return (
    method +
    words.map((word) => (word.startsWith(":") ? `By${cap(word.slice(1))}` : cap(word))).join("")
  );
}
const cap = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

const objectProperties = (schema: unknown) => {
  const json = schema ? toJsonSchema(schema) : {};
  const properties = isObject(json.properties) ? json.properties : {};
  const required = Array.isArray(json.required) ? json.required.map(String) : [];
  return Object.entries(properties).map(([name, property]) => ({
    name,
    schema: parameterSchema(isObject(property) ? property : {}),
    required: required.includes(name),
  }));
};

const parsers = (parse: unknown): string[] =>
  (Array.isArray(parse) ? parse : [parse]).flatMap((entry) => {
    const fn = isObject(entry) ? entry.fn : entry;
    return typeof fn === "string" ? [fn] : [];
  });

/**
 * The OpenAPI 3.1 document of an app's routes: named schemas, every error an
 * `application/problem+json` with the codes the operation answers with, and the headers each
 * response carries. `servers` is left to whoever serves it (the origin it was asked on).
 */
export function buildDocument(routes: readonly RouteInfo[], options: DocumentOptions) {
  const registry = componentRegistry({
    platform: { Problem, FieldProblem, HealthReport },
    ...options.models,
  });
  const problemRef = registry.refer(toJsonSchema(Problem));
  const paths: OpenApiDocument["paths"] = {};

  for (const route of routes) {
    const method = route.method.toLowerCase();
    const detail = (route.hooks.detail ?? {}) as Operation & { hide?: boolean };
    if (detail.hide || !METHODS.has(method)) continue;
    const { hide: _, responses: handWritten, ...documented } = detail;
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    // Public unless the route says otherwise: said outright, so no reader has to guess.
    const operation: Operation = {
      operationId: operationIdOf(method, route.path),
      security: [],
      ...documented,
    };
    const codes = new Set<string>();

    const parameters = [
      ...objectProperties(route.hooks.params).map((p) => ({ ...p, in: "path", required: true })),
      ...objectProperties(route.hooks.query).map((p) => ({ ...p, in: "query" })),
      ...objectProperties(route.hooks.headers).map((p) => ({ ...p, in: "header" })),
    ].map(({ schema, ...parameter }) => {
      const { description, ...rest } = schema;
      return {
        ...parameter,
        ...(typeof description === "string" && { description }),
        schema: registry.refer(rest),
      };
    });
    for (const match of route.path.matchAll(/:(\w+)/g)) {
      if (!parameters.some((p) => p.in === "path" && p.name === match[1])) {
        parameters.push({ name: match[1] ?? "", in: "path", required: true, schema: {} });
      }
    }
    if (parameters.length > 0) {
      // A route's own `detail.parameters` amend the generated ones (matched by name and place).
      const amended = Array.isArray(detail.parameters) ? (detail.parameters as Parameter[]) : [];
      operation.parameters = parameters.map((parameter) => ({
        ...parameter,
        ...amended.find((a) => a.name === parameter.name && a.in === parameter.in),
      }));
      codes.add("VALIDATION_FAILED");
    }

    if (route.hooks.body && !operation.requestBody) {
      const multipart = parsers(route.hooks.parse).some((fn) => /form/.test(fn));
      const body = toJsonSchema(route.hooks.body);
      // The schema's own example, also as the body's: what a reference page fills in.
      const example = Array.isArray(body.examples) ? body.examples[0] : undefined;
      operation.requestBody = {
        required: true,
        content: {
          [multipart ? "multipart/form-data" : "application/json"]: {
            schema: registry.refer(body),
            ...(example !== undefined && { examples: { example: { value: example } } }),
          },
        },
      };
      for (const code of multipart ? ["VALIDATION_FAILED"] : JSON_BODY_PROBLEMS) codes.add(code);
    }

    const declared = responseMap(route.hooks.response);
    for (const schema of Object.values(declared)) {
      for (const code of problemCodesOf(schema)) codes.add(code);
    }
    for (const code of options.impliedProblems?.(route, operation) ?? []) codes.add(code);

    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(declared)) {
      if (Number(status) >= 400) continue;
      const json = schema === undefined ? undefined : toJsonSchema(schema);
      const headers = headersOf(schema);
      responses[status] = {
        description:
          (json && typeof json.description === "string" && json.description) ||
          (STATUS_TEXT[status] ?? "Success"),
        headers: Object.fromEntries(headers.map((name) => [name, headerRef(name)])),
        ...(json &&
          Object.keys(json).length > 0 && {
            content: { "application/json": { schema: registry.refer(json) } },
          }),
      };
    }
    for (const [status, listed] of byStatus([...codes], options.problems)) {
      responses[status] = problemResponse(status, listed, options.problems, problemRef);
    }
    for (const [status, response] of Object.entries(handWritten ?? {})) {
      responses[status] = { ...(responses[status] as object), ...response };
    }
    for (const [status, response] of Object.entries(responses)) {
      responses[status] = withPlatformHeaders(response, codes);
    }
    operation.responses = Object.fromEntries(
      Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
    );
    paths[path] = { ...paths[path], [method]: operation };
  }

  return {
    openapi: "3.1.0",
    info: { ...options.info, license: { name: "MIT", identifier: "MIT" } },
    ...(options.tags && { tags: options.tags }),
    paths,
    components: {
      schemas: registry.schemas(),
      headers: Object.fromEntries(
        Object.entries(HEADER_COMPONENTS).filter(([name]) =>
          JSON.stringify(paths).includes(`"#/components/headers/${name}"`),
        ),
      ),
      ...(options.securitySchemes && { securitySchemes: options.securitySchemes }),
    },
  } satisfies OpenApiDocument;
}

/** A route's `response` option as status → schema (a lone schema is the 200). */
function responseMap(response: unknown): Record<string, unknown> {
  if (response === undefined) return {};
  if (isObject(response) && ("type" in response || "anyOf" in response || "$ref" in response)) {
    return { 200: response };
  }
  if (isObject(response) && Object.keys(response).every((key) => /^\d{3}$/.test(key))) {
    return response;
  }
  return { 200: response };
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
  table: ProblemTable,
  problemRef: JsonSchema,
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
      },
    },
  };
}

/** X-Request-Id on every answer; the quota on every answer of a rate-limited operation. */
function withPlatformHeaders(response: unknown, codes: Set<string>) {
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
