import { t } from "elysia";
import { JsonInteger } from "./integer.ts";

/**
 * What rule a field broke, as a code a client turns into a sentence in its reader's language
 * (the `message` beside it is the API's English, for developers). Schema rules come from
 * validation; the others from services' own checks (`invalidField`).
 */
export const FIELD_RULES = [
  "required",
  "type",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "uniqueItems",
  "enum",
  "unknownField",
  "future",
  "later",
  "notFound",
  "duplicate",
  "notAllowed",
  "invalid",
] as const;
export type FieldRule = (typeof FIELD_RULES)[number];

/** One field-level problem inside a 422: a JSON Pointer into the request and what is wrong. */
export const FieldProblem = t.Object({
  path: t.String({ description: "JSON Pointer into the request, e.g. /body/score" }),
  message: t.String({ description: "In English, for developers; people read `rule` in words" }),
  rule: t.Optional(
    t.Union(
      FIELD_RULES.map((rule) => t.Literal(rule)),
      {
        description:
          "The rule broken, for a client to say in its own words: required, type, format, pattern, minLength, maxLength, minimum, maximum, minItems, maxItems, uniqueItems, enum, unknownField (schema rules); future, later, notFound, duplicate, notAllowed, invalid (a service's checks)",
      },
    ),
  ),
  limit: t.Optional(
    t.Union([t.Number(), t.String()], {
      description:
        "The rule's bound: the length, count or value for min/max rules, the format's name (email, date, date-time…) for format",
    }),
  ),
});
export type FieldProblem = typeof FieldProblem.static;

/**
 * RFC 9457 problem details, the one error body of every service.
 * `code` is the stable machine code clients switch on; `type` names the same problem as a URI.
 */
export const Problem = t.Object(
  {
    type: t.String({ examples: ["/problems/validation-failed"] }),
    title: t.String({ examples: ["Validation failed"] }),
    status: JsonInteger({ minimum: 400, maximum: 599 }),
    detail: t.String(),
    code: t.String({ pattern: "^[A-Z][A-Z0-9_]*$", examples: ["VALIDATION_FAILED"] }),
    requestId: t.String(),
    errors: t.Optional(t.Array(FieldProblem)),
  },
  { description: "application/problem+json (RFC 9457)" },
);
export type Problem = typeof Problem.static;
