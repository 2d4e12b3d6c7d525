import { describe, expect, test } from "bun:test";
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
  ])("%s → 422 naming playerName", async (_, playerName) => {
    const problem = await expectProblem(
      post({ playerName, score: 1 }),
      422,
      "VALIDATION_FAILED",
      "/body/playerName",
    );
    expect(problem.detail.length).toBeLessThan(300);
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
