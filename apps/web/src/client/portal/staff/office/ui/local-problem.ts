import type { Problem } from "@platform/contracts/problem";

/**
 * A refusal made in the page, shaped as the API's 422, for what cannot even be sent (an amount
 * that is not one, a date that does not exist): the same error summary and field messages.
 */
export const localProblem = (fields: string[]): Problem | null =>
  fields.length === 0
    ? null
    : {
        type: "about:blank",
        title: "Validation failed",
        status: 422,
        detail: "",
        code: "VALIDATION_FAILED",
        requestId: "",
        errors: fields.map((name) => ({ path: `/${name}`, message: "" })),
      };
