import { type TString, Type } from "@sinclair/typebox";
import { t } from "elysia";

type EnumOptions = Parameters<typeof t.UnionEnum>[1];

/**
 * `t.UnionEnum` without its implicit default: Elysia gives every UnionEnum `default: values[0]`,
 * which silently fills an omitted optional field (a PATCH without `level` would reset it).
 */
export function enumOf<const V extends readonly [string, ...string[]]>(
  values: V,
  options: EnumOptions = {},
) {
  const schema = t.UnionEnum(values, options);
  if (!options || !("default" in options)) delete (schema as { default?: unknown }).default;
  return schema;
}

/**
 * A JSON integer, strictly. Elysia's `t.Integer` also takes numeric strings (right for query
 * parameters, which are strings) and shows as a string-or-integer union in the reference.
 */
export const int = (options: Parameters<typeof Type.Integer>[0] = {}) => Type.Integer(options);

/**
 * Elysia's `t.NoValidate` (documented, never checked or cleaned at run time), without writing
 * its `noValidate` marker into the published OpenAPI document: the flag is not enumerable.
 */
export function unchecked<T extends object>(schema: T): T {
  Object.defineProperty(schema, "noValidate", { value: true, enumerable: false });
  return schema;
}

/** Every id the API hands out: a UUIDv7 (docs/admissions/README.md, "Data"). */
export const Id = t.String({ format: "uuid" });

/** Every instant the API shows: ISO-8601 UTC with milliseconds. */
export const Timestamp = t.String({ format: "date-time" });

type StringOptions = Parameters<typeof t.String>[0];

/**
 * An id as a request carries it, in a path, a query or a body: a string of at most 64
 * characters, not checked as a UUID, so an id of another form is simply one that names nothing
 * (404, or the 422 of the field that holds it).
 */
export const idInput = (options: StringOptions = {}) => t.String({ maxLength: 64, ...options });

/** Path parameters that are all ids: `idParams("id", "documentId")` for `/:id/…/:documentId/`. */
export const idParams = <const K extends string>(...names: K[]) =>
  t.Object(Object.fromEntries(names.map((name) => [name, idInput()])) as Record<K, TString>);

/** `/:id/`: the one id a path names (a program, a payment, a webhook endpoint…). */
export const IdParams = idParams("id");

/** `/applications/:id/…`: the routes about one application (its reviews, fee, decision…). */
export const ApplicationParams = IdParams;
