import { Kind } from "@sinclair/typebox";
import { canonical, isObject, type JsonSchema, mapChildren, toJsonSchema } from "./json-schema.ts";

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;

/** Only shapes worth a name: objects, lists and enumerations (not `Id`, a bare string). */
function isNameable(schema: JsonSchema): boolean {
  return (
    schema.type === "object" ||
    schema.type === "array" ||
    Array.isArray(schema.enum) ||
    Array.isArray(schema.anyOf) ||
    Array.isArray(schema.allOf)
  );
}

/**
 * The named schemas of a document. `models` are the exports of the apps' model.ts files (and the
 * shared contracts), passed whole (`import * as catalog from "./modules/catalog/model.ts"`): every
 * TypeBox export with a PascalCase name is a candidate, named as it is exported, so a model file
 * needs no annotation. Where a route's schema is the same as a named one (the same JSON), the
 * document says `$ref` instead of repeating it, at any depth: a Program inside a page of programs
 * is a `$ref` too. The first export of a shape names it.
 */
export function componentRegistry(models: readonly Record<string, unknown>[]) {
  const byShape = new Map<string, { name: string; schema: JsonSchema }>();
  for (const module of models) {
    for (const [name, value] of Object.entries(module)) {
      if (!PASCAL_CASE.test(name) || !isObject(value) || !(Kind in value)) continue;
      const schema = toJsonSchema(value);
      const key = canonical(schema);
      if (isNameable(schema) && !byShape.has(key)) byShape.set(key, { name, schema });
    }
  }
  const used = new Map<string, JsonSchema>();

  /** The schema with every named shape in it replaced by a `$ref` (itself too, unless `root`). */
  function refer(schema: JsonSchema, keepRoot = false): JsonSchema {
    if (!keepRoot) {
      const named = byShape.get(canonical(schema));
      if (named) {
        used.set(named.name, named.schema);
        return { $ref: `#/components/schemas/${named.name}` };
      }
    }
    return mapChildren(schema, (child) => refer(child));
  }

  /** `components.schemas`: each name the document refers to, its own nested shapes referred. */
  function schemas(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    let pending = [...used.keys()].filter((name) => !(name in out));
    while (pending.length > 0) {
      for (const name of pending) {
        const schema = used.get(name);
        if (schema) out[name] = refer(schema, true);
      }
      pending = [...used.keys()].filter((name) => !(name in out));
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }

  return { refer, schemas };
}

export type ComponentRegistry = ReturnType<typeof componentRegistry>;
