import { t } from "elysia";
import { JsonInteger } from "./integer.ts";
import { RUN_CODE_MAX, RUN_OUTPUT_MAX_BYTES, RUN_TIMEOUT_MAX_MS } from "./limits.ts";

export { RUN_CODE_MAX, RUN_OUTPUT_MAX_BYTES, RUN_TIMEOUT_MAX_MS };

export const RunRequest = t.Object({
  code: t.String({
    maxLength: RUN_CODE_MAX,
    description: "TypeScript source, at most 1000 characters",
  }),
  // A JSON integer only: "timeout": "100" is a 422, not 100 (decisions.md, Code execution).
  timeout: t.Optional(
    JsonInteger({
      minimum: 1,
      maximum: RUN_TIMEOUT_MAX_MS,
      default: RUN_TIMEOUT_MAX_MS,
      description: "Milliseconds; default and maximum 5000",
    }),
  ),
});
export type RunRequest = typeof RunRequest.static;

export const RunResult = t.Object({
  output: t.String({ description: "Console output in order, capped at 64 KiB" }),
  error: t.Union([t.String(), t.Null()], { description: '"Name: message", or null on success' }),
  executionTime: t.Number({ description: "Milliseconds, may be fractional" }),
  timedOut: t.Boolean(),
});
export type RunResult = typeof RunResult.static;
