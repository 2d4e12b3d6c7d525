import { afterAll, describe, expect, test } from "bun:test";
import { SCORE_MAX } from "@platform/contracts/limits";
import { freePort, problemOf } from "@platform/server/testing";
import { type Entry, makeApp } from "./support.ts";

/** Over a real port, so the client address is the one the server sees. */
async function listen(opts: Parameters<typeof makeApp>[0]) {
  const { app, store } = makeApp(opts);
  const port = await freePort();
  app.listen({ port, hostname: "127.0.0.1" });
  return { app, store, base: `http://127.0.0.1:${port}/api/leaderboard` };
}

const servers: { app: { stop(): Promise<unknown> } }[] = [];
afterAll(async () => {
  for (const server of servers) await server.app.stop();
});

const submit = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(base, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("per-IP POST limit", () => {
  test("the limit+1-th POST from one client is refused with 429 and an exact Retry-After", async () => {
    let now = 1_763_769_600_000;
    const server = await listen({ postsPerMinute: 3, now: () => now });
    servers.push(server);
    const client = { "x-forwarded-for": "198.51.100.7" };
    for (let i = 0; i < 3; i++) {
      const res = await submit(server.base, { playerName: "a", score: i }, client);
      expect(res.status).toBe(201);
      // t: seconds until the first request leaves the window.
      expect(res.headers.get("ratelimit")).toBe(`"leaderboard-submit";r=${2 - i};t=${60 - 10 * i}`);
      now += 10_000;
    }
    const refused = await submit(server.base, { playerName: "a", score: 9 }, client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect((await problemOf(refused)).code).toBe("RATE_LIMITED");
    // Another client is not affected; GET is not limited.
    expect(
      (
        await submit(
          server.base,
          { playerName: "b", score: 1 },
          { "x-forwarded-for": "198.51.100.8" },
        )
      ).status,
    ).toBe(201);
    expect((await fetch(server.base, { headers: client })).status).toBe(200);
    now += 30_000;
    expect((await submit(server.base, { playerName: "a", score: 10 }, client)).status).toBe(201);
  });

  test("X-Forwarded-For from an untrusted peer is ignored: the spoofer is limited as itself", async () => {
    const server = await listen({ postsPerMinute: 2, trusted: "none" });
    servers.push(server);
    for (const spoof of ["1.1.1.1", "2.2.2.2"]) {
      expect(
        (await submit(server.base, { playerName: "s", score: 1 }, { "x-forwarded-for": spoof }))
          .status,
      ).toBe(201);
    }
    const third = await submit(
      server.base,
      { playerName: "s", score: 1 },
      { "x-forwarded-for": "3.3.3.3" },
    );
    expect(third.status).toBe(429);
  });
});

describe("1,000 concurrent POSTs", () => {
  test("none lost, all distinct, and the final order is right", async () => {
    const server = await listen({ postsPerMinute: 10_000 });
    servers.push(server);
    // Distinct: 7919 is prime and does not divide SCORE_MAX + 1, so i ↦ 7919·i is one-to-one.
    const scores = Array.from({ length: 1_000 }, (_, i) => (i * 7919) % (SCORE_MAX + 1));
    const responses = await Promise.all(
      scores.map((score, i) => submit(server.base, { playerName: `player${i}`, score })),
    );
    expect(responses.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    const entries = (await Promise.all(responses.map((r) => r.json()))) as Entry[];
    expect(new Set(entries.map((e) => e.id)).size).toBe(1_000);
    const expected = scores.toSorted((a, b) => b - a).slice(0, 10);
    const board = (await (await fetch(server.base)).json()) as Entry[];
    expect(board.map((e) => e.score)).toEqual(expected);
    // Each board entry is the one the server answered for that submission.
    for (const entry of board)
      expect(entries.find((e) => e.id === entry.id)?.playerName).toBe(entry.playerName);
  });
});
