/** A JSON Schema (or OpenAPI schema object) as plain JSON: what the document is made of. */
export type JsonSchema = { [key: string]: unknown };

export const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords whose value is a map of schemas, a list of schemas, or one schema. */
const MAP_KEYS = ["properties", "patternProperties", "$defs"];
const LIST_KEYS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const ONE_KEYS = ["items", "additionalProperties", "not", "contains", "propertyNames"];

/** The same schema with `fn` applied to each direct sub-schema (the node itself untouched). */
export function mapChildren(node: JsonSchema, fn: (child: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = { ...node };
  for (const key of MAP_KEYS) {
    const map = node[key];
    if (isObject(map)) {
      out[key] = Object.fromEntries(
        Object.entries(map).map(([name, child]) => [name, isObject(child) ? fn(child) : child]),
      );
    }
  }
  for (const key of LIST_KEYS) {
    const list = node[key];
    if (Array.isArray(list)) out[key] = list.map((child) => (isObject(child) ? fn(child) : child));
  }
  for (const key of ONE_KEYS) {
    const child = node[key];
    if (isObject(child)) out[key] = fn(child);
  }
  return out;
}

/** JSON text with object keys sorted: two schemas are the same when their keys are. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Elysia's query-string coercions: a string alternative beside the real type. */
const COERCION_FORMATS = new Set(["integer", "numeric", "boolean", "ObjectString", "ArrayString"]);

function isCoercion(schema: unknown): boolean {
  return (
    isObject(schema) && schema.type === "string" && COERCION_FORMATS.has(String(schema.format))
  );
}

/**
 * A TypeBox schema as the JSON Schema 2020-12 that OpenAPI 3.1 speaks: TypeBox's symbol keys
 * and Elysia's marks dropped, `nullable` (an OpenAPI 3.0 word) left out beside the null branch
 * that says the same, and `t.File`'s placeholder default removed.
 */
export function toJsonSchema(schema: unknown): JsonSchema {
  const plain: unknown = JSON.parse(JSON.stringify(schema ?? {}));
  return isObject(plain) ? clean(plain) : {};
}

function clean(node: JsonSchema): JsonSchema {
  const out = mapChildren(node, clean);
  delete out.nullable;
  if (out.format === "binary" && out.default === "File") delete out.default;
  if (out.format === "binary" && out.default === "Files") delete out.default;
  return out;
}

/**
 * A parameter's schema as the client must send it. Elysia's `t.Integer`, `t.Numeric` and
 * `t.Boolean` in a query take a numeric string too (every query value is a string), which the
 * generic conversion shows as "string or integer"; a client sends the integer, so the string
 * alternative is dropped and the integer keeps the keywords written beside the union.
 */
export function parameterSchema(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || !anyOf.some(isCoercion)) return schema;
  const rest = anyOf.filter((branch) => !isCoercion(branch));
  const { anyOf: _dropped, ...outer } = schema;
  const [only] = rest;
  if (rest.length === 1 && isObject(only)) return { ...only, ...outer };
  return { ...outer, anyOf: rest };
}
