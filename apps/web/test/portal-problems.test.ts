/**
 * Errors in words: every problem code the portal can meet has a sentence in both languages,
 * every rule a field can break too, and no schema or API English reaches a person.
 */
import { describe, expect, test } from "bun:test";
import { admissionsProblems, SYSTEM_NOTES } from "@platform/admissions/models";
import { FIELD_RULES } from "@platform/contracts/problem";
import { problemCatalog } from "@platform/server";
import {
  CONDITION_NOT_MET,
  SYSTEM_NOTE_KEYS,
} from "../src/client/portal/applicant/application/after/Timeline.tsx";
import { en } from "../src/client/portal/i18n/en.ts";
import { fr } from "../src/client/portal/i18n/fr.ts";
import { fieldError, fieldMessage, problemText } from "../src/client/portal/ui/problems.ts";

const catalogues = { en, fr } as Record<string, Record<string, string>>;
/** The codes the portal's pages can be answered with: admissions', the shared ones, the network. */
const CODES = [...Object.keys(admissionsProblems), ...Object.keys(problemCatalog), "NETWORK_ERROR"];

const problem = (
  code: string,
  status: number,
  errors?: { path: string; message: string; rule?: string; limit?: number | string }[],
) => ({
  type: "about:blank",
  title: "Some English title",
  status,
  detail: "Some English detail",
  code,
  requestId: "req-1",
  ...(errors ? { errors: errors as never } : {}),
});

describe("every problem in words", () => {
  test.each(["en", "fr"])("%s: every code the APIs answer has its sentence", (lang) => {
    const missing = CODES.filter((code) => !catalogues[lang]?.[`problem.${code}`]?.trim());
    expect(missing).toEqual([]);
  });

  test.each(["en", "fr"])("%s: every rule a field can break has its sentence", (lang) => {
    const missing = FIELD_RULES.filter((rule) => !catalogues[lang]?.[`rule.${rule}`]?.trim());
    expect(missing).toEqual([]);
  });

  test("French says each problem in French, not the English words", () => {
    const same = CODES.filter((code) => {
      const key = `problem.${code}`;
      return catalogues.fr?.[key] === catalogues.en?.[key];
    });
    expect(same).toEqual([]);
  });

  test("a problem is never the API's own title or detail", () => {
    for (const code of CODES) {
      const text = problemText(problem(code, 409));
      expect(text).not.toContain("Some English");
      expect(text.length).toBeGreaterThan(10);
    }
  });

  test("a code no catalogue knows is said by its status, with what to do next", () => {
    expect(problemText(problem("SOMETHING_NEW", 503))).toBe(en["problem.SERVICE_UNAVAILABLE"]);
    expect(problemText(problem("SOMETHING_NEW", 500))).toContain("Try again in a few minutes");
    expect(problemText(problem("SOMETHING_NEW", 502))).toBe(en["problem.BAD_GATEWAY"]);
    expect(problemText(problem("SOMETHING_NEW", 404))).toBe(en["problem.NOT_FOUND"]);
    expect(problemText(problem("SOMETHING_NEW", 418))).toBe(en["problem.fallback4xx"]);
    expect(problemText(problem("SOMETHING_NEW", 0))).toBe(en["problem.NETWORK_ERROR"]);
  });
});

describe("field errors in words", () => {
  test("the rule decides the sentence; the API's English message never shows", () => {
    const cases: [
      { path: string; message: string; rule?: string; limit?: number | string },
      string,
    ][] = [
      [
        {
          path: "/body/email",
          message: "Expected string to match 'email' format",
          rule: "format",
          limit: "email",
        },
        en["rule.format.email"],
      ],
      [
        {
          path: "/body/password",
          message: "Expected string length greater or equal to 10",
          rule: "minLength",
          limit: 10,
        },
        en["ruleFor.password.minLength"],
      ],
      [
        {
          path: "/body/relationship",
          message: "Expected string length less or equal to 200",
          rule: "maxLength",
          limit: 200,
        },
        "Enter 200 characters or fewer.",
      ],
      [
        {
          path: "/body/fullName",
          message: "Expected string length greater or equal to 1",
          rule: "minLength",
          limit: 1,
        },
        en["ruleFor.fullName.minLength"],
      ],
      [
        {
          path: "/body/name",
          message: "Expected string length greater or equal to 1",
          rule: "minLength",
          limit: 1,
        },
        en["rule.required"],
      ],
      [
        {
          path: "/body/phone",
          message: "Expected string to match '^\\+[1-9][0-9]{6,14}$'",
          rule: "pattern",
        },
        en["ruleFor.phone.pattern"],
      ],
      [
        { path: "/body/graduationYear", message: "Expected union value", rule: "type" },
        en["ruleFor.graduationYear.type"],
      ],
      [
        { path: "/body/startsAt", message: "must be in the future", rule: "future" },
        en["rule.future"],
      ],
      // No rule (an older API): a plain sentence, still not the message.
      [{ path: "/body/whatever", message: "Expected something odd" }, en["rule.invalid"]],
      // A rule the portal has never heard of: the same.
      [{ path: "/body/whatever", message: "odd", rule: "brandNew" }, en["rule.invalid"]],
    ];
    for (const [error, sentence] of cases) expect(fieldMessage(error as never)).toBe(sentence);
  });

  test("fieldError finds a field by its pointer's end, or inside it, and joins its sentences", () => {
    const p = problem("VALIDATION_FAILED", 422, [
      { path: "/body/address/lines/0", message: "x", rule: "maxLength", limit: 100 },
      { path: "/body/email", message: "x", rule: "format", limit: "email" },
      { path: "/body/email", message: "y", rule: "maxLength", limit: 254 },
    ]);
    expect(fieldError(p as never, "email")).toBe(
      `${en["rule.format.email"]} Enter 254 characters or fewer.`,
    );
    expect(fieldError(p as never, "lines")).toBe("Enter 100 characters or fewer.");
    expect(fieldError(p as never, "address/lines")).toBe("Enter 100 characters or fewer.");
    expect(fieldError(p as never, "phone")).toBeUndefined();
  });
});

test("the timeline knows every note the platform writes on a move", () => {
  const fixed = Object.values(SYSTEM_NOTES).filter((note) => note !== SYSTEM_NOTES.conditionNotMet);
  expect(Object.keys(SYSTEM_NOTE_KEYS).sort()).toEqual([...fixed].sort());
  expect(CONDITION_NOT_MET).toBe(SYSTEM_NOTES.conditionNotMet);
});
