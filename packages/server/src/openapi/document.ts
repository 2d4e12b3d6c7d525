import { FieldProblem, Problem } from "@platform/contracts/problem";
import { HealthReport } from "../http/health.ts";
import { RATE_LIMIT_EXTENSION } from "../http/rate-limit-macro.ts";
import { accessDescription } from "./access.ts";
import { componentRegistry } from "./components.ts";
import { HEADER_COMPONENTS } from "./headers.ts";
import { toJsonSchema } from "./json-schema.ts";
import { operationIdOf } from "./operation-id.ts";
import { parametersOf, type RouteInfo, requestBodyOf } from "./request.ts";
import { declaredCodes, type ProblemTable, responseMap, responsesOf } from "./responses.ts";

export type DocumentOptions = {
  info: { title: string; version: string; description?: string };
  /**
   * The app is reached through the gateway (every app but the gateway itself): each operation
   * can then also be answered by the gateway, 502 BAD_GATEWAY and 504 GATEWAY_TIMEOUT, and one
   * with a body 413 PAYLOAD_TOO_LARGE past the gateway's limit for the route.
   */
  behindGateway: boolean;
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

/** Every route answers a request whose Host is empty or no host name 400 (platform.ts). */
const PLATFORM_PROBLEMS = ["BAD_REQUEST"];
/** What the gateway itself answers for any request it forwards (apps/gateway, proxy). */
const GATEWAY_PROBLEMS = ["BAD_GATEWAY", "GATEWAY_TIMEOUT"];

/** Who answers the document's questions: a contact on every document (Spectral's info-contact). */
const CONTACT = { name: "Admissions platform operators" };

/** A field of the route's request for a 422's example: its first parameter or body field. */
function exampleField(parameters: { name: string; in: string }[], body: unknown): string {
  const [first] = parameters.filter((p) => p.in !== "header");
  if (first) return `/${first.in === "path" ? "params" : first.in}/${first.name}`;
  const properties = toJsonSchema(body).properties;
  const [name] = Object.keys(properties && typeof properties === "object" ? properties : {});
  return name ? `/body/${name}` : "/body";
}

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
  const ids = new Map<string, string>();
  const declaredTags = options.tags && new Set(options.tags.map((tag) => tag.name));

  for (const route of routes) {
    const method = route.method.toLowerCase();
    const detail = (route.hooks.detail ?? {}) as Operation & { hide?: boolean };
    if (detail.hide || !METHODS.has(method)) continue;
    const { hide: _, responses: handWritten, ...documented } = detail;
    const declared = responseMap(route.hooks.response);
    // Public unless the route says otherwise: said outright, so no reader has to guess.
    const operation: Operation = {
      operationId: operationIdOf(method, route.path, declared),
      security: [],
      ...documented,
    };
    const where = `${route.method} ${route.path}`;
    const id = String(operation.operationId);
    const taken = ids.get(id);
    if (taken) throw new Error(`operationId ${id} names both ${taken} and ${where}`);
    ids.set(id, where);
    const tags = Array.isArray(operation.tags) ? operation.tags.map(String) : [];
    const undeclared = declaredTags && tags.find((tag) => !declaredTags.has(tag));
    if (undeclared) throw new Error(`${where}: tag "${undeclared}" is not in the document's tags`);
    operation.description ??= accessDescription(operation);
    const codes = new Set<string>(PLATFORM_PROBLEMS);
    if (options.behindGateway) for (const code of GATEWAY_PROBLEMS) codes.add(code);
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
    if (route.hooks.body && options.behindGateway) codes.add("PAYLOAD_TOO_LARGE");
    for (const code of declaredCodes(declared)) codes.add(code);
    for (const code of options.impliedProblems?.(route, operation) ?? []) codes.add(code);
    // The rateLimit macro documents its limit on the route (rate-limit-macro.ts): a limited
    // route can answer 429 and sends its quota on every answer, whatever else it declares.
    if (RATE_LIMIT_EXTENSION in operation) codes.add("RATE_LIMITED");
    operation.responses = responsesOf(
      declared,
      codes,
      (handWritten ?? {}) as Record<string, object>,
      { ...context, field: exampleField(parameters, route.hooks.body) },
    );
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    paths[path] = { ...paths[path], [method]: operation };
  }

  return {
    openapi: "3.1.0",
    info: { ...options.info, contact: CONTACT, license: { name: "MIT", identifier: "MIT" } },
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
