import type { FieldProblem, Problem } from "@platform/contracts/problem";
import type { MessageKey } from "../i18n/index.ts";
import { CATALOGUES } from "../i18n/index.ts";
import { lang, t } from "../i18n/use.ts";
import { institution } from "./branding.ts";

/*
 * A problem as a person reads it: a sentence from the catalogue for its code (every code the
 * APIs answer has one: test/portal-problems.test.ts), else one for its status; a field's error
 * from the rule it broke (the API's `rule` and `limit`), never the API's English message or a
 * schema's words.
 */

const has = (key: string): key is MessageKey => key in CATALOGUES[lang];

/** The general sentence for a problem, in the page's language. */
export function problemText(problem: Problem): string {
  const vars = { contact: institution.contact || t("common.office"), requestId: problem.requestId };
  const own = `problem.${problem.code}`;
  if (has(own)) return t(own, vars);
  // A code no catalogue names (a newer API): what its status says, and what to do next.
  if (problem.status === 0) return t("problem.NETWORK_ERROR", vars);
  if (problem.status === 401) return t("problem.UNAUTHORIZED", vars);
  if (problem.status === 403) return t("problem.FORBIDDEN", vars);
  if (problem.status === 404) return t("problem.NOT_FOUND", vars);
  if (problem.status === 422) return t("problem.VALIDATION_FAILED", vars);
  if (problem.status === 429) return t("problem.RATE_LIMITED", vars);
  if (problem.status === 502 || problem.status === 504) return t("problem.BAD_GATEWAY", vars);
  if (problem.status === 503) return t("problem.SERVICE_UNAVAILABLE", vars);
  if (problem.status >= 500) return t("problem.INTERNAL_ERROR", vars);
  return t("problem.fallback4xx", vars);
}

/** A server-side failure: the office may need the request id to find what happened. */
export const wantsReference = (problem: Problem) =>
  problem.status >= 500 && problem.requestId !== "";

/** The last segment of an error's JSON Pointer: the field it names (`/body/address/city` → city). */
const fieldOf = (error: FieldProblem) => error.path.split("/").filter(Boolean).at(-1) ?? "";

/** One field error in words: the field's own sentence for the rule, else the rule's. */
export function fieldMessage(error: FieldProblem): string {
  const rule = error.rule ?? "invalid";
  const limit = error.limit;
  const own = `ruleFor.${fieldOf(error)}.${rule}`;
  if (has(own)) return t(own);
  if (rule === "format" && typeof limit === "string" && has(`rule.format.${limit}`)) {
    return t(`rule.format.${limit}` as MessageKey);
  }
  // "At least one character" is what a required text field says.
  if (rule === "minLength" && limit === 1) return t("rule.required");
  const general = `rule.${rule}`;
  return has(general) ? t(general, { limit: limit ?? "" }) : t("rule.invalid");
}

/** The errors of a 422 that name this field (the pointer ends with it, or passes through it). */
export const errorsFor = (problem: Problem | null, name: string) =>
  (problem?.errors ?? []).filter(
    (e) => e.path.endsWith(`/${name}`) || e.path.includes(`/${name}/`),
  );

/** The sentence to show beside a field, or undefined when the 422 does not name it. */
export function fieldError(problem: Problem | null, name: string): string | undefined {
  const sentences = [...new Set(errorsFor(problem, name).map(fieldMessage))];
  return sentences.length > 0 ? sentences.join(" ") : undefined;
}
