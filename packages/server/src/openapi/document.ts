import { FieldProblem, Problem } from "@platform/contracts/problem";
import { HealthReport } from "../http/health.ts";
import { RATE_LIMIT_EXTENSION } from "../http/rate-limit-macro.ts";
import { componentRegistry } from "./components.ts";
import { HEADER_COMPONENTS } from "./headers.ts";
import { toJsonSchema } from "./json-schema.ts";
import { parametersOf, type RouteInfo, requestBodyOf } from "./request.ts";
import { declaredCodes, type ProblemTable, responseMap, responsesOf } from "./responses.ts";

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
  const context = {
    registry,
    problems: options.problems,
    problemRef: registry.refer(toJsonSchema(Problem)),
  };
  const paths: OpenApiDocument["paths"] = {};

  for (const route of routes) {
    const method = route.method.toLowerCase();
    const detail = (route.hooks.detail ?? {}) as Operation & { hide?: boolean };
    if (detail.hide || !METHODS.has(method)) continue;
    const { hide: _, responses: handWritten, ...documented } = detail;
    // Public unless the route says otherwise: said outright, so no reader has to guess.
    const operation: Operation = {
      operationId: operationIdOf(method, route.path),
      security: [],
      ...documented,
    };
    const codes = new Set<string>();
    const parameters = parametersOf(route, registry, detail.parameters);
    if (parameters.length > 0) {
      operation.parameters = parameters;
      codes.add("VALIDATION_FAILED");
    }
    if (route.hooks.body && !operation.requestBody) {
      const { requestBody, codes: implied } = requestBodyOf(route, registry);
      operation.requestBody = requestBody;
      for (const code of implied) codes.add(code);
    }
    const declared = responseMap(route.hooks.response);
    for (const code of declaredCodes(declared)) codes.add(code);
    for (const code of options.impliedProblems?.(route, operation) ?? []) codes.add(code);
    // The rateLimit macro documents its limit on the route (rate-limit-macro.ts): a limited
    // route can answer 429 and sends its quota on every answer, whatever else it declares.
    if (RATE_LIMIT_EXTENSION in operation) codes.add("RATE_LIMITED");
    operation.responses = responsesOf(
      declared,
      codes,
      (handWritten ?? {}) as Record<string, object>,
      context,
    );
    const path = route.path.replace(/:(\w+)/g, "{$1}");
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
