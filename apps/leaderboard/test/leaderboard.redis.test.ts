import { afterAll, describe, expect, test } from "bun:test";
import { redisStore } from "@platform/server";
import { get, jsonRequest, startRedis, uniquePrefix } from "@platform/server/testing";
import { type Entry, makeApp } from "./support.ts";

const redis = await startRedis();
afterAll(() => redis?.stop());

describe.skipIf(!redis)("two leaderboard instances on one Redis", () => {
  test("serve one board: writes through either are read through both, ties in arrival order", async () => {
    const prefix = uniquePrefix("leaderboard-replicas");
    const url = redis?.url ?? "";
    const a = makeApp({ store: redisStore(url, { prefix }) }).app;
    const b = makeApp({ store: redisStore(url, { prefix }) }).app;
    const post = (body: unknown) => jsonRequest("/api/leaderboard", body);

    expect((await a.handle(post({ playerName: "from-a", score: 10 }))).status).toBe(201);
    const fromB = (await (
      await b.handle(post({ playerName: "from-b", score: 10 }))
    ).json()) as Entry;
    expect(fromB.rank).toBe(2); // tie: the earlier submission (through a) stays ahead
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).handle(post({ playerName: `n${i}`, score: 100 + i })),
      ),
    );
    const boardA = (await (await a.handle(get("/api/leaderboard"))).json()) as Entry[];
    const boardB = (await (await b.handle(get("/api/leaderboard"))).json()) as Entry[];
    expect(boardA).toEqual(boardB);
    expect(boardA.map((e) => e.score)).toEqual(Array.from({ length: 10 }, (_, i) => 139 - i));
  });

  test("the per-IP limit is shared by the replicas", async () => {
    const prefix = uniquePrefix("leaderboard-limit");
    const url = redis?.url ?? "";
    const a = makeApp({ store: redisStore(url, { prefix }), postsPerMinute: 4 }).app;
    const b = makeApp({ store: redisStore(url, { prefix }), postsPerMinute: 4 }).app;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await (i % 2 ? a : b).handle(
            jsonRequest("/api/leaderboard", { playerName: "x", score: i }),
          )
        ).status,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
  });
});
