import type { FieldProblem } from "@platform/contracts/problem";
import { ValueErrorType } from "@sinclair/typebox/errors";
import type { ValidationError } from "elysia";

type ValueIssue = {
  path?: string;
  message: string;
  type?: number;
  schema?: { enum?: unknown[]; anyOf?: unknown[]; const?: unknown };
  /** A union's issues, one iterator per variant (TypeBox). */
  errors?: Iterable<ValueIssue>[];
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
  return first ? innermost(first) : issue;
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
 * Where a coerced value sits. Elysia turns a query's or path's `t.Integer`/`t.Numeric` text into
 * a number in a transform, and a number out of range fails there with a ValidationError of type
 * "property" that has lost the parameter's name (`/property`). The request still names it: the
 * query parameter (else path parameter) whose text is that number, so the client is pointed at
 * `/query/limit`, not at "property".
 */
function locate(error: ValidationError, request: Request, route: string | undefined): string {
  if (error.type !== "property") return `/${error.type}`;
  const failed = error.value;
  const same = (text: string) => text === String(failed) || Object.is(Number(text), failed);
  for (const [name, text] of new URL(request.url).searchParams) {
    if (same(text)) return `/query/${name}`;
  }
  const given = new URL(request.url).pathname.split("/");
  const pattern = route?.split("/") ?? [];
  for (const [i, part] of pattern.entries()) {
    const text = given[i];
    if (part.startsWith(":") && text !== undefined && same(decodeURIComponent(text))) {
      return `/params/${part.slice(1)}`;
    }
  }
  return "";
}

/** A request's schema failures as the problem's `errors`: a JSON Pointer and why, per field. */
export function fieldProblems(
  error: ValidationError,
  request: Request,
  route: string | undefined,
): FieldProblem[] {
  const where = locate(error, request, route);
  return (error.all as ValueIssue[]).map(innermost).map((issue) => {
    const allowed = allowedValues(issue.schema);
    return {
      path: `${where}${issue.path ?? ""}` || "/",
      message: allowed ? `Expected one of: ${allowed.join(", ")}` : issue.message,
    };
  });
}
