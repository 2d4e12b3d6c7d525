import { Kind } from "@sinclair/typebox";
import { canonical, isObject, type JsonSchema, mapChildren, toJsonSchema } from "./json-schema.ts";

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;
const pascal = (name: string) =>
  name.replace(/(^|[-_])(\w)/g, (_, __, letter: string) => letter.toUpperCase());

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
 * needs no annotation (`models` maps a module's name to its exports). Where a route's schema is the same as a named one (the same JSON), the
 * document says `$ref` instead of repeating it, at any depth: a Program inside a page of programs
 * is a `$ref` too. The first export of a shape names it.
 */
export function componentRegistry(models: Record<string, Record<string, unknown>>) {
  const candidates: { module: string; name: string; schema: JsonSchema; key: string }[] = [];
  for (const [module, exports] of Object.entries(models)) {
    for (const [name, value] of Object.entries(exports)) {
      if (!PASCAL_CASE.test(name) || !isObject(value) || !(Kind in value)) continue;
      const schema = toJsonSchema(value);
      if (isNameable(schema)) candidates.push({ module, name, schema, key: canonical(schema) });
    }
  }
  // Two modules may export different shapes under one name (documents' and reviews' ReviewBody):
  // then each is named after its module too.
  const shapesOf = new Map<string, Set<string>>();
  for (const { name, key } of candidates)
    shapesOf.set(name, (shapesOf.get(name) ?? new Set()).add(key));
  const byShape = new Map<string, { name: string; schema: JsonSchema }>();
  for (const { module, name, schema, key } of candidates) {
    const ambiguous = (shapesOf.get(name)?.size ?? 0) > 1;
    if (!byShape.has(key))
      byShape.set(key, { name: ambiguous ? `${pascal(module)}${name}` : name, schema });
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
