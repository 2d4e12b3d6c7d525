import { Problem } from "@platform/contracts/problem";
import { problemCatalog } from "../http/problem.ts";

/**
 * What a route declares for its reference beyond Elysia's own options, carried on the response
 * schemas themselves as symbol-keyed marks: Elysia validates and types the schema as usual, the
 * JSON the reference prints does not see the marks, and the document builder reads them.
 */
const PROBLEM_CODES = Symbol.for("@platform/openapi.problemCodes");
const RESPONSE_HEADERS = Symbol.for("@platform/openapi.responseHeaders");

type ProblemTable = Record<string, { status: number; title: string }>;
type StatusOf<All, K> = K extends keyof All
  ? All[K] extends { status: infer S extends number }
    ? S
    : never
  : never;
/** Each status the codes answer with, typed as the problem body (Eden and handlers see it). */
export type ProblemResponses<All, C> = { [S in StatusOf<All, C>]: typeof Problem };

/** A copy of `schema` (Elysia sees the same schema) carrying a mark. */
function marked<T extends object>(schema: T, mark: symbol, value: readonly string[]): T {
  const copy = Object.create(
    Object.getPrototypeOf(schema),
    Object.getOwnPropertyDescriptors(schema),
  ) as T;
  Object.defineProperty(copy, mark, { value, enumerable: false });
  return copy;
}

/**
 * A route's error responses from the problem codes it can answer with, each under its status:
 * `response: { 200: Program, ...problems("NOT_FOUND", "PROGRAM_CODE_TAKEN") }`. The codes come
 * from the generic catalog and the app's own table, so a code that does not exist does not
 * compile. Codes the route's options already imply (a body: VALIDATION_FAILED and the parser's
 * 400/413/415; credentials; rate limits) are added by the document builder, not listed here.
 */
export function problemDeclarations<const T extends ProblemTable>(table: T) {
  const all: ProblemTable = { ...problemCatalog, ...table };
  type All = typeof problemCatalog & T;
  return function problems<const C extends readonly (keyof All & string)[]>(...codes: C) {
    const byStatus = new Map<number, string[]>();
    for (const code of codes) {
      const status = all[code]?.status ?? 500;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const responses: Record<number, unknown> = {};
    for (const [status, listed] of byStatus) {
      responses[status] = marked<object>(Problem, PROBLEM_CODES, listed);
    }
    return responses as ProblemResponses<All, C[number]>;
  };
}

export const problemCodesOf = (schema: unknown): readonly string[] =>
  (typeof schema === "object" && schema !== null
    ? (schema as { [PROBLEM_CODES]?: readonly string[] })[PROBLEM_CODES]
    : undefined) ?? [];

/** The response headers the reference declares (components.headers in the document). */
export const RESPONSE_HEADER_NAMES = [
  "ETag",
  "Location",
  "Set-Cookie",
  "Idempotent-Replayed",
] as const;
export type DeclaredHeader = (typeof RESPONSE_HEADER_NAMES)[number];

/**
 * A success response that also sends headers: `{ 200: withHeaders(Application, "ETag") }`.
 * X-Request-Id (every answer), the RateLimit fields and Retry-After follow from the platform and
 * the route's problem codes; the headers a handler sets itself are named here.
 */
export const withHeaders = <T extends object>(schema: T, ...headers: DeclaredHeader[]): T =>
  marked(schema, RESPONSE_HEADERS, headers);

export const headersOf = (schema: unknown): readonly DeclaredHeader[] =>
  (typeof schema === "object" && schema !== null
    ? (schema as { [RESPONSE_HEADERS]?: readonly DeclaredHeader[] })[RESPONSE_HEADERS]
    : undefined) ?? [];

/** The generic codes' error responses, for an app without codes of its own. */
export const genericProblems = problemDeclarations({});
