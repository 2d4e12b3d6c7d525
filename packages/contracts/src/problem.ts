import { t } from "elysia";
import { JsonInteger } from "./integer.ts";

/** One field-level problem inside a 422: a JSON Pointer into the request and what is wrong. */
export const FieldProblem = t.Object({
  path: t.String({ description: "JSON Pointer into the request, e.g. /body/score" }),
  message: t.String(),
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
