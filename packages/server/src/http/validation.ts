import type { FieldProblem, FieldRule } from "@platform/contracts/problem";
import { ValueErrorType } from "@sinclair/typebox/errors";
import type { ValidationError } from "elysia";

type ValueIssue = {
  path?: string;
  message: string;
  value?: unknown;
  type?: number;
  schema?: {
    enum?: unknown[];
    anyOf?: unknown[];
    const?: unknown;
    pattern?: unknown;
    format?: string;
    minLength?: number;
    maxLength?: number;
    minimum?: number;
    maximum?: number;
    minItems?: number;
    maxItems?: number;
  };
  /** A union's issues, one iterator per variant (TypeBox). */
  errors?: Iterable<ValueIssue>[];
  /** Set by `innermost`: every variant of the union refused the value's kind. */
  kindRefused?: boolean;
};

/** Errors saying the value is of another kind than the schema (a string where null was asked). */
const KIND_MISMATCH: ReadonlySet<number> = new Set([
  ValueErrorType.Array,
  ValueErrorType.Boolean,
  ValueErrorType.Integer,
  ValueErrorType.Literal,
  ValueErrorType.Null,
  ValueErrorType.Number,
  ValueErrorType.Object,
  ValueErrorType.String,
]);

/**
 * A field of several kinds (a nullable one, text or an object) holding a bad value fails as a
 * whole union ("Expected union value"); what the client needs is why the value failed the
 * variant of its own kind ("Expected string to match …"): the one variant whose errors do not
 * start by refusing the value's kind where the union stands.
 */
function innermost(issue: ValueIssue): ValueIssue {
  if (issue.type !== ValueErrorType.Union || !issue.errors) return issue;
  const variants = issue.errors.map((it) => [...it]);
  const ofItsKind = variants.filter(
    (v) =>
      !v.some((e) => e.path === issue.path && e.type !== undefined && KIND_MISMATCH.has(e.type)),
  );
  const [first] = ofItsKind.length === 1 ? (ofItsKind[0] ?? []) : [];
  if (first) return innermost(first);
  // No variant takes a value of this kind (text where a number or null is asked): its kind is
  // what is wrong, whatever the union's own message says.
  return ofItsKind.length === 0 ? { ...issue, kindRefused: true } : issue;
}

const E = ValueErrorType;
/** Each schema rule TypeBox reports, as the rule code clients say in words, and its bound. */
const RULES: Partial<
  Record<number, [FieldRule, (s: NonNullable<ValueIssue["schema"]>) => unknown]>
> = {
  [E.ObjectRequiredProperty]: ["required", () => undefined],
  [E.StringFormat]: ["format", (s) => s.format],
  [E.StringFormatUnknown]: ["format", (s) => s.format],
  [E.StringPattern]: ["pattern", () => undefined],
  [E.StringMinLength]: ["minLength", (s) => s.minLength],
  [E.StringMaxLength]: ["maxLength", (s) => s.maxLength],
  [E.NumberMinimum]: ["minimum", (s) => s.minimum],
  [E.IntegerMinimum]: ["minimum", (s) => s.minimum],
  [E.NumberExclusiveMinimum]: ["minimum", () => undefined],
  [E.IntegerExclusiveMinimum]: ["minimum", () => undefined],
  [E.NumberMaximum]: ["maximum", (s) => s.maximum],
  [E.IntegerMaximum]: ["maximum", (s) => s.maximum],
  [E.NumberExclusiveMaximum]: ["maximum", () => undefined],
  [E.IntegerExclusiveMaximum]: ["maximum", () => undefined],
  [E.ArrayMinItems]: ["minItems", (s) => s.minItems],
  [E.ArrayMaxItems]: ["maxItems", (s) => s.maxItems],
  [E.ArrayUniqueItems]: ["uniqueItems", () => undefined],
  [E.ObjectAdditionalProperties]: ["unknownField", () => undefined],
  [E.Literal]: ["enum", () => undefined],
};

const KIND_FORMATS: ReadonlySet<string> = new Set(["integer", "numeric", "boolean"]);

/** The rule an issue broke (`type` for a value of another kind), and its bound where it has one. */
function ruleOf(issue: ValueIssue): { rule: FieldRule; limit?: number | string } {
  if (allowedValues(issue.schema) || listedValues(issue.schema)) return { rule: "enum" };
  if (issue.kindRefused) return { rule: "type" };
  const entry = issue.type === undefined ? undefined : RULES[issue.type];
  if (!entry) {
    const kind = issue.type !== undefined && KIND_MISMATCH.has(issue.type);
    // A missing field is reported as a value of the wrong kind (undefined is not a string).
    if (kind && issue.value === undefined) return { rule: "required" };
    return { rule: kind ? "type" : "invalid" };
  }
  const limit = issue.schema ? entry[1](issue.schema) : undefined;
  // Elysia reads numbers and booleans from query strings as strings of these formats: a value
  // failing one is a value of the wrong kind, not a badly written string.
  if (entry[0] === "format" && typeof limit === "string" && KIND_FORMATS.has(limit)) {
    return { rule: "type" };
  }
  return typeof limit === "number" || typeof limit === "string"
    ? { rule: entry[0], limit }
    : { rule: entry[0] };
}

/**
 * The values an enumeration allows, whichever way it was written: `t.UnionEnum` (`enum`),
 * or a union of literals (`t.Union([t.Literal("a"), …])`, `t.Enum`, Elysia's `t.NumericEnum`),
 * whose own message would only say "Expected union value".
 */
function allowedValues(schema: ValueIssue["schema"]): unknown[] | undefined {
  if (Array.isArray(schema?.enum)) return schema.enum;
  const variants = schema?.anyOf;
  if (!Array.isArray(variants) || variants.length === 0) return undefined;
  const consts = variants.map((v) => (typeof v === "object" && v !== null ? v : {}));
  return consts.every((v) => "const" in v)
    ? consts.map((v) => (v as { const: unknown }).const)
    : undefined;
}

/**
 * A comma-separated list of an enumeration's values is a string whose pattern repeats one
 * alternation (`^(a|b)(,(a|b))*$`, as admissions' status filter writes it); its own message
 * would show the regular expression, not the values.
 */
function listedValues(schema: ValueIssue["schema"]): string[] | undefined {
  const pattern = schema?.pattern;
  if (typeof pattern !== "string") return undefined;
  const match = /^\^\(([\w-]+(?:\|[\w-]+)*)\)\(,\(([^()]*)\)\)\*\$$/.exec(pattern);
  return match?.[1] !== undefined && match[1] === match[2] ? match[1].split("|") : undefined;
}

/** Why a field failed, in the words a client can act on: an enumeration lists its values. */
function messageOf(issue: ValueIssue): string {
  const allowed = allowedValues(issue.schema);
  if (allowed) return `Expected one of: ${allowed.join(", ")}`;
  const listed = listedValues(issue.schema);
  if (listed) return `Expected one or more of, separated by commas: ${listed.join(", ")}`;
  return issue.message;
}

/** A route's own request schemas, where the platform could look them up (platform.ts). */
export type RequestSchemas = { query?: unknown; params?: unknown };

/** The JSON shape of a schema (TypeBox's symbols left out), to compare copies of one. */
const shapeOf = (schema: unknown) => JSON.stringify(schema);

/**
 * Whether the parameter `name` of `schemas` is (or coerces through) the schema that failed:
 * Elysia's `t.Integer` and `t.Numeric` are a union of their text and the number schema, and the
 * error carries a copy of the number schema.
 */
function declares(schemas: unknown, name: string, failed: unknown): boolean {
  const properties = (schemas as { properties?: Record<string, { anyOf?: unknown[] }> })
    ?.properties;
  const property = properties?.[name];
  if (!property) return false;
  const wanted = shapeOf(failed);
  return [property, ...(property.anyOf ?? [])].some((variant) => shapeOf(variant) === wanted);
}

/**
 * Where a coerced value sits. Elysia turns a query's or path's `t.Integer`/`t.Numeric` text into
 * a number in a transform, and a number out of range fails there with a ValidationError of type
 * "property" that has lost the parameter's name (`/property`). The request still names it: the
 * query parameter (else path parameter) whose text is that number, and where several hold the
 * same text (`?offset=0&limit=0`), the one the route declares with the schema that failed, so
 * the client is pointed at `/query/limit`, not at "property" nor at its neighbour.
 */
function locate(
  error: ValidationError,
  request: Request,
  route: string | undefined,
  schemas: RequestSchemas,
): string {
  if (error.type !== "property") return `/${error.type}`;
  const failed = error.value;
  const same = (text: string) => text === String(failed) || Object.is(Number(text), failed);
  const url = new URL(request.url);
  const given = url.pathname.split("/");
  const candidates: { in: "query" | "params"; name: string }[] = [];
  for (const [name, text] of url.searchParams) {
    if (same(text)) candidates.push({ in: "query", name });
  }
  for (const [i, part] of (route?.split("/") ?? []).entries()) {
    const text = given[i];
    if (part.startsWith(":") && text !== undefined && same(decodeURIComponent(text))) {
      candidates.push({ in: "params", name: part.slice(1) });
    }
  }
  const found =
    candidates.find((c) => declares(schemas[c.in], c.name, error.validator)) ?? candidates[0];
  return found ? `/${found.in}/${found.name}` : "";
}

/** A request's schema failures as the problem's `errors`: a JSON Pointer and why, per field. */
export function fieldProblems(
  error: ValidationError,
  request: Request,
  route: string | undefined,
  schemas: RequestSchemas = {},
): FieldProblem[] {
  const where = locate(error, request, route, schemas);
  return (error.all as ValueIssue[]).map(innermost).map((issue) => ({
    path: `${where}${issue.path ?? ""}` || "/",
    message: messageOf(issue),
    ...ruleOf(issue),
  }));
}
