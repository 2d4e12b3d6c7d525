import type { ComponentRegistry } from "./components.ts";
import { isObject, parameterSchema, toJsonSchema } from "./json-schema.ts";

/** A route as Elysia lists it (`app.routes`): what its document entry is built from. */
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

/** The platform's JSON parser's refusals, and validation: what any JSON body may be answered. */
const JSON_BODY_PROBLEMS = [
  "MALFORMED_JSON",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "VALIDATION_FAILED",
];

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

/**
 * A route's path, query and header parameters, from its `params`, `query` and `headers` schemas
 * (a path parameter without a schema is a string), each amended by the route's own
 * `detail.parameters` entry of the same name and place (e.g. `required: true`).
 */
export function parametersOf(route: RouteInfo, registry: ComponentRegistry, amend: unknown) {
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
  const amended = Array.isArray(amend) ? (amend as Parameter[]) : [];
  return parameters.map((parameter) => ({
    ...parameter,
    ...amended.find((a) => a.name === parameter.name && a.in === parameter.in),
  }));
}

const parsers = (parse: unknown): string[] =>
  (Array.isArray(parse) ? parse : [parse]).flatMap((entry) => {
    const fn = isObject(entry) ? entry.fn : entry;
    return typeof fn === "string" ? [fn] : [];
  });

/** The route's body (JSON, or multipart where it parses form data) and the codes it implies. */
export function requestBodyOf(route: RouteInfo, registry: ComponentRegistry) {
  const multipart = parsers(route.hooks.parse).some((fn) => /form/.test(fn));
  const body = toJsonSchema(route.hooks.body);
  // The schema's own example, also as the body's: what a reference page fills in.
  const example = Array.isArray(body.examples) ? body.examples[0] : undefined;
  const requestBody = {
    required: true,
    content: {
      [multipart ? "multipart/form-data" : "application/json"]: {
        schema: registry.refer(body),
        ...(example !== undefined && { examples: { example: { value: example } } }),
      },
    },
  };
  return { requestBody, codes: multipart ? ["VALIDATION_FAILED"] : JSON_BODY_PROBLEMS };
}
