import { describe, expect, test } from "bun:test";
import { SCORE_MAX } from "@platform/contracts/limits";
import { memoryStore } from "@platform/server";
import { get, jsonRequest } from "@platform/server/testing";
import { type Entry, makeApp } from "./support.ts";

const post = (body: unknown) => jsonRequest("/api/leaderboard", body);

describe("GET /api/leaderboard", () => {
  test("an empty board is an empty array", async () => {
    const { app } = makeApp();
    const res = await app.handle(get("/api/leaderboard"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(await res.json()).toEqual([]);
  });

  test("returns at most 10 entries, highest score first", async () => {
    const { app } = makeApp();
    const scores = [5, 99, 3, 42, 7, SCORE_MAX, 0, 13, 8, 77, 21, 64, 2];
    for (const [i, score] of scores.entries())
      await app.handle(post({ playerName: `p${i}`, score }));
    const board = (await (await app.handle(get("/api/leaderboard"))).json()) as Entry[];
    expect(board.map((e) => e.score)).toEqual(scores.toSorted((a, b) => b - a).slice(0, 10));
  });

  test("ties rank the earlier submission first", async () => {
    let now = 1_763_769_600_000;
    const { app } = makeApp({ now: () => now++ });
    for (const name of ["first", "second", "third"])
      await app.handle(post({ playerName: name, score: 50 }));
    await app.handle(post({ playerName: "top", score: 51 }));
    const board = (await (await app.handle(get("/api/leaderboard"))).json()) as Entry[];
    expect(board.map((e) => e.playerName)).toEqual(["top", "first", "second", "third"]);
  });

  test("a trailing slash works too", async () => {
    const { app } = makeApp();
    expect((await app.handle(get("/api/leaderboard/"))).status).toBe(200);
  });
});

describe("POST /api/leaderboard", () => {
  test("201 with the stored entry: server-made id and millisecond ISO timestamp, plus rank", async () => {
    const now = Date.UTC(2026, 10, 22, 8, 30, 15, 123);
    const { app } = makeApp({ now: () => now });
    const res = await app.handle(post({ playerName: "Ada", score: 4200 }));
    expect(res.status).toBe(201);
    const entry = (await res.json()) as Entry;
    expect(entry).toEqual({
      id: expect.stringMatching(new RegExp(`^${now}-[0-9a-z]{8}$`)),
      playerName: "Ada",
      score: 4200,
      timestamp: "2026-11-22T08:30:15.123Z",
      rank: 1,
    });
    const board = (await (await app.handle(get("/api/leaderboard"))).json()) as Entry[];
    expect(board).toEqual([
      { id: entry.id, playerName: "Ada", score: 4200, timestamp: entry.timestamp },
    ]);
  });

  test("ids are unique", async () => {
    const { app } = makeApp({ now: () => 1_763_769_600_000 }); // one millisecond for all
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++)
      ids.add(((await (await app.handle(post({ playerName: "x", score: i }))).json()) as Entry).id);
    expect(ids.size).toBe(200);
  });

  test("rank is null outside the top 10, and the entry does not appear", async () => {
    const { app } = makeApp();
    for (let i = 0; i < 10; i++)
      await app.handle(post({ playerName: `p${i}`, score: 100 + 2 * i }));
    const low = (await (await app.handle(post({ playerName: "low", score: 1 }))).json()) as Entry;
    expect(low.rank).toBeNull();
    const tie = (await (await app.handle(post({ playerName: "tie", score: 100 }))).json()) as Entry;
    expect(tie.rank).toBeNull(); // equal to the 10th, but later
    const mid = (await (await app.handle(post({ playerName: "mid", score: 109 }))).json()) as Entry;
    expect(mid.rank).toBe(6); // behind 118, 116, 114, 112, 110
    const board = (await (await app.handle(get("/api/leaderboard"))).json()) as Entry[];
    expect(board).toHaveLength(10);
    expect(board.map((e) => e.playerName)).not.toContain("low");
    expect(board[5]?.playerName).toBe("mid");
  });

  test("a client-sent id and timestamp are ignored, unknown fields dropped", async () => {
    const { app } = makeApp();
    const res = await app.handle(
      post({
        playerName: "Eve",
        score: 1,
        id: "1-hacked",
        timestamp: "1999-01-01T00:00:00.000Z",
        admin: true,
      }),
    );
    const entry = (await res.json()) as Entry & { admin?: boolean };
    expect(entry.id).not.toBe("1-hacked");
    expect(entry.timestamp).not.toBe("1999-01-01T00:00:00.000Z");
    expect(entry.admin).toBeUndefined();
  });

  test("names are trimmed and NFC-normalised", async () => {
    const { app } = makeApp();
    const entry = (await (
      await app.handle(post({ playerName: "  Zoe\u0301  ", score: 1 }))
    ).json()) as Entry;
    expect(entry.playerName).toBe("Zoé");
  });

  test.each([
    ["emoji", "🎮 Pro Gamer 🏆"],
    ["a family emoji counts as one character", "👨‍👩‍👧‍👦".repeat(32)],
    ["CJK", "玩家一号"],
    ["right-to-left script", "لاعب"],
    ["exactly 32 characters", "x".repeat(32)],
    // Invisible characters beside a visible one are text, not an empty name.
    ["a Persian word with its zero-width non-joiner", "می\u200Cخواهم"],
    ["an emoji with its variation selector", "\u2764\uFE0F"],
    [
      "a subdivision flag (tag characters)",
      "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
    ],
    ["Hangul", "한국어"],
    ["braille that is not blank", "\u2801\u2803"],
    ["one letter among fillers", "\u3164x\u3164"],
    ["punctuation alone", "..."],
    ["a symbol alone", "\u2605"],
  ])("accepts %s", async (_, playerName) => {
    const { app } = makeApp();
    const res = await app.handle(post({ playerName, score: 1 }));
    expect(res.status).toBe(201);
    expect(((await res.json()) as Entry).playerName).toBe(playerName);
  });

  test.each([
    ["zero", "0", 0],
    ["the game's best", String(SCORE_MAX), SCORE_MAX],
    ["a whole number written with a fraction", "4200.0", 4200],
    ["a whole number in exponent form", "4.2e3", 4200],
    ["negative zero, stored as zero", "-0", 0],
  ])("accepts %s and stores it exactly", async (_, written, score) => {
    const { app } = makeApp();
    const res = await app.handle(post(`{"playerName":"s","score":${written}}`));
    expect(res.status).toBe(201);
    expect(Object.is(((await res.json()) as Entry).score, score)).toBe(true);
    const board = (await (await app.handle(get("/api/leaderboard"))).json()) as Entry[];
    expect(Object.is(board[0]?.score, score)).toBe(true);
  });
});

describe("bounded memory", () => {
  test("however many scores arrive, only the top 10 are kept", async () => {
    const store = memoryStore();
    const { app } = makeApp({ store });
    const scores = Array.from({ length: 5_000 }, () => Math.floor(Math.random() * SCORE_MAX));
    for (let i = 0; i < scores.length; i += 500) {
      await Promise.all(
        scores.slice(i, i + 500).map((score) => app.handle(post({ playerName: "bulk", score }))),
      );
    }
    expect(store.sizes().ranked).toBe(10);
    const board = (await (await app.handle(get("/api/leaderboard"))).json()) as Entry[];
    expect(board.map((e) => e.score)).toEqual(scores.toSorted((a, b) => b - a).slice(0, 10));
    await store.close();
  });
});
