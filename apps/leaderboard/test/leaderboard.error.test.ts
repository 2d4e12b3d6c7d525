import { describe, expect, test } from "bun:test";
import { SCORE_MAX } from "@platform/contracts/limits";
import { get, jsonRequest, problemOf } from "@platform/server/testing";
import { makeApp } from "./support.ts";

const { app } = makeApp();
const post = (body: unknown, init?: RequestInit) => jsonRequest("/api/leaderboard", body, init);

async function expectProblem(request: Request, status: number, code: string, path?: string) {
  const res = await app.handle(request);
  expect(res.status).toBe(status);
  const problem = await problemOf(res);
  expect(problem.code).toBe(code);
  expect(problem.status).toBe(status);
  if (path) expect(problem.errors?.map((e) => e.path)).toContain(path);
  return problem;
}

// A name the board refuses: 422 pointing at playerName.
const nameRefused = (playerName: string) =>
  expectProblem(post({ playerName, score: 1 }), 422, "VALIDATION_FAILED", "/body/playerName");

describe("bad bodies", () => {
  test("malformed JSON → 400", async () => {
    await expectProblem(post('{"playerName": "a", "score": '), 400, "MALFORMED_JSON");
    await expectProblem(post("{'playerName': 'a'}"), 400, "MALFORMED_JSON");
  });

  test("wrong content type → 415", async () => {
    const body = JSON.stringify({ playerName: "a", score: 1 });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/html"]) {
      await expectProblem(
        post(body, { headers: { "content-type": type } }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      );
    }
  });

  test("missing content type → 415", async () => {
    const request = new Request("http://localhost/api/leaderboard", {
      method: "POST",
      body: new Blob([JSON.stringify({ playerName: "a", score: 1 })]),
    });
    await expectProblem(request, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  test("a body over the 16 KiB limit → 413", async () => {
    await expectProblem(
      post({ playerName: "a", score: 1, padding: "x".repeat(20_000) }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });

  test.each([
    ["no playerName", { score: 1 }, "/body/playerName"],
    ["no score", { playerName: "a" }, "/body/score"],
    ["empty object", {}, "/body/playerName"],
    ["score as a string", { playerName: "a", score: "100" }, "/body/score"],
    ["score null", { playerName: "a", score: null }, "/body/score"],
    ["score true", { playerName: "a", score: true }, "/body/score"],
    ["playerName a number", { playerName: 7, score: 1 }, "/body/playerName"],
    ["playerName an object", { playerName: { first: "a" }, score: 1 }, "/body/playerName"],
  ])("%s → 422", async (_, body, path) => {
    await expectProblem(post(body), 422, "VALIDATION_FAILED", path);
  });

  test("a JSON array or scalar instead of an object → 422", async () => {
    await expectProblem(post([{ playerName: "a", score: 1 }]), 422, "VALIDATION_FAILED");
    await expectProblem(post("42"), 422, "VALIDATION_FAILED");
  });

  test("1e309 (parses to Infinity) → 422", async () => {
    await expectProblem(
      post('{"playerName":"a","score":1e309}'),
      422,
      "VALIDATION_FAILED",
      "/body/score",
    );
    await expectProblem(
      post('{"playerName":"a","score":-1e309}'),
      422,
      "VALIDATION_FAILED",
      "/body/score",
    );
  });
});

describe("scores the game cannot produce", () => {
  const RULE = `must be a whole number from 0 to ${SCORE_MAX}, the most one game can score`;
  test.each([
    ["Number.MAX_VALUE", Number.MAX_VALUE],
    ["1e308", 1e308],
    ["one more than the game's best", SCORE_MAX + 1],
    ["2^53, past the safe integers", 2 ** 53],
    ["negative", -1],
    ["the lowest number", -Number.MAX_VALUE],
    ["fractional", 4200.5],
    ["a tiny fraction", 0.1],
    ["the smallest positive number", Number.MIN_VALUE],
  ])("%s → 422 naming score, in words", async (_, score) => {
    const problem = await expectProblem(
      post({ playerName: "a", score }),
      422,
      "VALIDATION_FAILED",
      "/body/score",
    );
    expect(problem.errors?.[0]?.message).toBe(RULE);
  });

  test.each([
    ["1e308 written out", '{"playerName":"a","score":1e308}'],
    ["a fraction in exponent form", '{"playerName":"a","score":4.25e1}'],
    ["a negative zero-point-five", '{"playerName":"a","score":-0.5}'],
  ])("%s → 422 naming score", async (_, body) => {
    await expectProblem(post(body), 422, "VALIDATION_FAILED", "/body/score");
  });

  test.each([
    ['"NaN"', "NaN"],
    ['"Infinity"', "Infinity"],
    ['"1e308"', "1e308"],
    ['"42"', "42"],
  ])("the string %s → 422 naming score (a number must be a JSON number)", async (_, score) => {
    await expectProblem(post({ playerName: "a", score }), 422, "VALIDATION_FAILED", "/body/score");
  });

  test("ten Number.MAX_VALUE scores do not freeze the board: a real score still ranks first", async () => {
    const { app: fresh } = makeApp();
    for (let i = 0; i < 10; i++) {
      const res = await fresh.handle(post({ playerName: `max${i}`, score: Number.MAX_VALUE }));
      expect(res.status).toBe(422);
    }
    const real = await fresh.handle(post({ playerName: "real", score: 4200 }));
    expect(real.status).toBe(201);
    expect(((await real.json()) as { rank: number | null }).rank).toBe(1);
  });
});

describe("bad names", () => {
  test.each([
    ["10,000 characters", "x".repeat(10_000)],
    ["33 characters", "x".repeat(33)],
    ["empty", ""],
    ["only whitespace", "   \t  "],
    ["a newline", "Ada\nLovelace"],
    ["a NUL", "Ada\u0000"],
    ["a C1 control", "Ada\u0085"],
    ["DEL", "Ada\u007f"],
    ["an ANSI escape", "\u001b[31mred"],
    ["a bidi override", "abc\u202Efdp.exe"],
    ["a line separator", "a\u2028b"],
    ["a combining-mark tower", `a${"\u0301".repeat(500)}`],
    // Every bidi control (Bidi_Control), not only the overrides and isolates.
    ["a left-to-right mark", "Ada\u200E"],
    ["a right-to-left mark", "\u200FAda"],
    ["an Arabic letter mark", "Ada\u061C"],
    ["a left-to-right embedding", "\u202AAda"],
    ["a right-to-left embedding", "\u202BAda"],
    ["a pop directional formatting", "Ada\u202C"],
    ["a left-to-right override", "\u202DAda"],
    ["a first-strong isolate", "\u2068Ada\u2069"],
  ])("%s → 422 naming playerName", async (_, playerName) => {
    const problem = await nameRefused(playerName);
    expect(problem.detail.length).toBeLessThan(300);
  });

  // Nothing a person could read: zero-width characters, fillers that render as blanks, a lone
  // combining mark. Each is refused alone and in any mix.
  const blanks: Record<string, string> = {
    "zero-width spaces": "\u200B\u200B",
    "a zero-width non-joiner": "\u200C",
    "a zero-width joiner": "\u200D",
    "a word joiner": "\u2060",
    // Alone, trim() takes it (JavaScript counts U+FEFF as white space): so between others.
    "a byte-order mark": "\u200B\uFEFF\u200B",
    "Hangul fillers": "\u3164\u3164\u3164",
    "a Hangul choseong filler": "\u115F",
    "a Hangul jungseong filler": "\u1160",
    "a halfwidth Hangul filler": "\uFFA0",
    "braille blanks": "\u2800\u2800",
    "a Mongolian vowel separator": "\u180E",
    "a soft hyphen": "\u00AD",
    "variation selectors": "\uFE0F\uFE0E",
    "combining marks alone": "\u0301\u0308",
    "a mix of them": "\u200B\u3164\u2800\u200D\uFEFF\u115F",
  };
  test.each(Object.entries(blanks))(
    "only %s → 422 naming playerName, in words",
    async (_, playerName) => {
      const problem = await nameRefused(playerName);
      expect(problem.errors?.[0]?.message).toBe(
        "must contain at least one visible character: a letter, digit, punctuation mark or symbol",
      );
    },
  );

  test("a bidi control is refused in words", async () => {
    const problem = await nameRefused("Ada\u200F");
    expect(problem.errors?.[0]?.message).toBe(
      "must not contain control characters or text-direction marks",
    );
  });

  test("nothing rejected was stored", async () => {
    expect(await (await app.handle(get("/api/leaderboard"))).json()).toEqual([]);
  });
});

describe("routing", () => {
  test("other methods and paths → 404 problem", async () => {
    await expectProblem(
      new Request("http://localhost/api/leaderboard", { method: "DELETE" }),
      404,
      "NOT_FOUND",
    );
    await expectProblem(get("/api/leaderboard/123"), 404, "NOT_FOUND");
  });
});
