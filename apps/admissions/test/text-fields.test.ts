/**
 * Person-facing text (names, labels, statements, reasons, notes) holds no control characters:
 * a name with CR/LF or a bidi override ends up in emails to third parties (referees) and on
 * staff's screens. Every such field of every request body declares its rule (a sweep of the
 * OpenAPI document), and the rule is the one described in docs/admissions/README.md ("Text fields").
 */
import { describe, expect, test } from "bun:test";
import { get, problemOf } from "@platform/server/testing";
import { addReferee } from "./references-support.ts";
import {
  as,
  createDraft,
  createIntake,
  createProgram,
  json,
  PASSWORD,
  setupApp,
  signIn,
  uniqueEmail,
} from "./support.ts";

const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const applicant = await signIn(ctx);
const program = await createProgram(ctx, admin);
const intake = await createIntake(ctx, admin, program.id);
const draft = await createDraft(ctx, applicant, intake.id);

const SINGLE = "single-line-text";
const MULTI = "multi-line-text";

/** Strings of a request body that are not person-facing text, by field name. */
const NOT_TEXT = new Set([
  "email",
  "newEmail",
  "password",
  "currentPassword",
  "newPassword",
  "token",
  "refreshToken",
  "recoveryCode",
  "code",
  "url",
  // An interview's panel: staff ids.
  "panel",
  // multipart: the document's type (checked against the checklist) and the referee's token.
  "type",
]);
const isId = (name: string) => /(Id|Ids)$/.test(name);

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Document = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>
  >;
  components: { schemas: Record<string, Schema> };
};

const document = (await (await ctx.app.handle(get("/api/v1/schema/"))).json()) as Document;

/** Every free string of every request body: where, its field's name, its format. */
function freeStrings(): { where: string; name: string; format: string | undefined }[] {
  const found: { where: string; name: string; format: string | undefined }[] = [];
  const walk = (schema: Schema | undefined, where: string, name: string) => {
    const s = schema?.$ref
      ? document.components.schemas[schema.$ref.split("/").pop() ?? ""]
      : schema;
    if (!s) return;
    for (const variant of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])])
      walk(variant, where, name);
    if (s.type === "string" && !s.pattern && !s.enum && s.const === undefined) {
      const known = ["email", "uuid", "date", "date-time", "uri", "binary"];
      if (!s.format || !known.includes(s.format)) found.push({ where, name, format: s.format });
    }
    if (s.items) walk(s.items, `${where}[]`, name);
    for (const [key, value] of Object.entries(s.properties ?? {}))
      walk(value, `${where}.${key}`, key);
  };
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods))
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
        walk(media.schema, `${method.toUpperCase()} ${path} (${type}) body`, "");
  return found;
}

describe("every person-facing text field of every request body has its rule", () => {
  const strings = freeStrings();

  test("the sweep sees the fields (names, statements, reasons…)", () => {
    expect(strings.length).toBeGreaterThan(60);
    expect(strings.map((s) => s.where)).toContain(
      "POST /api/v1/references/ (application/json) body.name",
    );
  });

  test("each is one-line or multi-line text, or is not text at all (ids, secrets, addresses)", () => {
    const undeclared = strings
      .filter((s) => !NOT_TEXT.has(s.name) && !isId(s.name))
      .filter((s) => s.format !== SINGLE && s.format !== MULTI)
      .map((s) => s.where);
    expect(undeclared).toEqual([]);
  });

  test("names, labels and places are one line; statements, reasons and notes may have several", () => {
    const formatOf = (where: string) => strings.find((s) => s.where === where)?.format;
    expect(formatOf("POST /api/v1/auth/register/ (application/json) body.fullName")).toBe(SINGLE);
    expect(formatOf("POST /api/v1/references/ (application/json) body.relationship")).toBe(SINGLE);
    expect(formatOf("POST /api/v1/applications/ (application/json) body.personalStatement")).toBe(
      MULTI,
    );
    expect(formatOf("POST /api/v1/references/link/text/ (application/json) body.text")).toBe(MULTI);
  });
});

/** C0, DEL, C1, the Unicode line and paragraph separators, the bidi embeddings and overrides. */
const REFUSED_EVERYWHERE = [
  ["NUL", "\u0000"],
  ["a bell", "\u0007"],
  ["an escape", "\u001b"],
  ["DEL", "\u007f"],
  ["NEL (C1)", "\u0085"],
  ["a C1 CSI", "\u009b"],
  ["the line separator", "\u2028"],
  ["the paragraph separator", "\u2029"],
  ["a right-to-left override", "\u202e"],
  ["a left-to-right isolate", "\u2066"],
] as const;
const LINE_BREAKS = [
  ["LF", "\n"],
  ["CR LF", "\r\n"],
  ["a lone CR", "\r"],
  ["a tab", "\t"],
] as const;

const register = (fullName: string) =>
  ctx.app.handle(
    json("POST", "/api/v1/auth/register/", {
      email: uniqueEmail("text"),
      password: PASSWORD,
      fullName,
    }),
  );

async function refusal(res: Response, path: string) {
  expect(res.status).toBe(422);
  const problem = await problemOf(res);
  expect(problem.code).toBe("VALIDATION_FAILED");
  const issue = problem.errors?.find((e) => e.path === path);
  expect(issue?.message).toBeDefined();
  return issue?.message ?? "";
}

describe("one-line text: a name, a referee's name, their relationship", () => {
  test.each([...REFUSED_EVERYWHERE, ...LINE_BREAKS])(
    "%s in a display name is refused in words (422 naming the field)",
    async (_, character) => {
      const message = await refusal(await register(`Ada${character}Lovelace`), "/body/fullName");
      expect(message).toBe("must be one line, without tabs or other control characters");
    },
  );

  test.each([...REFUSED_EVERYWHERE, ...LINE_BREAKS])(
    "%s in a referee's name or relationship is refused, and no email is written",
    async (_, character) => {
      for (const field of ["name", "relationship"]) {
        const res = await addReferee(ctx, applicant, draft.id, {
          [field]: `Charles${character}Babbage`,
        });
        await refusal(res, `/body/${field}`);
      }
      const [row] = (await ctx.db.run(
        (sql) => sql`SELECT count(*) AS n FROM email_outbox WHERE event = 'reference_requested'`,
      )) as { n: unknown }[];
      expect(Number(row?.n)).toBe(0);
    },
  );

  test("a name of spaces is blank; letters of any script, marks and inner spaces are fine", async () => {
    expect(await refusal(await register("   "), "/body/fullName")).toBe("must not be blank");
    for (const name of ["Zoë O'Brien-Łukasiewicz", "محمد\u200f علي", "山田 太郎", "José  María"]) {
      const res = await register(name);
      expect(res.status, name).toBeLessThan(300);
    }
  });

  test("staff text is held to the same rule: a programme's name", async () => {
    const res = await ctx.app.handle(
      as(admin, "PATCH", `/api/v1/catalog/programs/${program.id}/`, { name: "CS\r\nBcc: x" }),
    );
    await refusal(res, "/body/name");
  });

  test("an offer's conditions are list items in the offer email: one line each, either form", async () => {
    const decide = (conditions: unknown[]) =>
      ctx.app.handle(
        as(admin, "POST", `/api/v1/applications/${crypto.randomUUID()}/decision/`, {
          decision: "conditional_offer",
          conditions,
        }),
      );
    expect(await refusal(await decide(["B in Maths\n- and pay now"]), "/body/conditions/0")).toBe(
      "must be one line, without tabs or other control characters",
    );
    const described = await decide([{ description: "B in Maths\u2028- and pay now" }]);
    await refusal(described, "/body/conditions/0/description");
  });
});

describe("multi-line text: a personal statement", () => {
  const statement = (text: string) =>
    ctx.app.handle(
      as(applicant, "PATCH", `/api/v1/applications/${draft.id}/`, { personalStatement: text }),
    );

  test.each(LINE_BREAKS)("%s is kept: paragraphs are legitimate here", async (_, character) => {
    const res = await statement(`First paragraph.${character}Second paragraph.`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { personalStatement: string };
    expect(body.personalStatement).toBe(`First paragraph.${character}Second paragraph.`);
  });

  test.each(REFUSED_EVERYWHERE)("%s is refused in words", async (_, character) => {
    const message = await refusal(await statement(`I${character}apply`), "/body/personalStatement");
    expect(message).toBe("must not contain control characters other than line breaks and tabs");
  });
});
