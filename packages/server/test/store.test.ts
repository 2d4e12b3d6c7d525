import { afterAll, describe, expect, test } from "bun:test";
import { memoryStore, redisStore, type SharedStore, StoreUnavailableError } from "../src/index.ts";
import { startRedis, uniquePrefix } from "./support/index.ts";

const redis = await startRedis();
afterAll(() => redis?.stop());

type Backend = { name: string; make: () => SharedStore };
const backends: Backend[] = [{ name: "memory", make: () => memoryStore() }];
if (redis) {
  backends.push({
    name: "redis",
    make: () => redisStore(redis.url, { prefix: uniquePrefix("store") }),
  });
}

for (const { name, make } of backends) {
  describe(`SharedStore on ${name}`, () => {
    test("get, set, delete and TTL expiry", async () => {
      const store = make();
      expect(await store.get("missing")).toBeNull();
      await store.set("a", "1");
      await store.set("short", "x", 30);
      expect(await store.get("a")).toBe("1");
      expect(await store.get("short")).toBe("x");
      await Bun.sleep(60);
      expect(await store.get("short")).toBeNull();
      await store.delete("a");
      expect(await store.get("a")).toBeNull();
      await store.close();
    });

    test("setIfAbsent sets once, and again after expiry", async () => {
      const store = make();
      expect(await store.setIfAbsent("k", "first", 40)).toBe(true);
      expect(await store.setIfAbsent("k", "second", 40)).toBe(false);
      expect(await store.get("k")).toBe("first");
      await Bun.sleep(70);
      expect(await store.setIfAbsent("k", "third")).toBe(true);
      await store.close();
    });

    test("increment counts atomically under concurrency and starts its TTL once", async () => {
      const store = make();
      const results = await Promise.all(
        Array.from({ length: 200 }, () => store.increment("n", 5_000)),
      );
      expect(results.toSorted((a, b) => a - b)).toEqual(
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
      expect(await store.increment("ttl", 40)).toBe(1);
      await Bun.sleep(70);
      expect(await store.increment("ttl", 40)).toBe(1);
      await store.close();
    });

    test("hitWindow allows `limit` hits per sliding window and frees one slot at a time", async () => {
      const store = make();
      const t0 = 1_000_000;
      for (let i = 0; i < 3; i++) {
        const hit = await store.hitWindow("w", 3, 1_000, t0 + i * 100);
        expect(hit).toEqual({ allowed: true, count: i + 1, oldestMs: t0 });
      }
      expect(await store.hitWindow("w", 3, 1_000, t0 + 999)).toEqual({
        allowed: false,
        count: 3,
        oldestMs: t0,
      });
      // At t0+1000 the first hit leaves the window: exactly one slot comes back.
      expect(await store.hitWindow("w", 3, 1_000, t0 + 1_000)).toEqual({
        allowed: true,
        count: 3,
        oldestMs: t0 + 100,
      });
      expect((await store.hitWindow("w", 3, 1_000, t0 + 1_050)).allowed).toBe(false);
      expect((await store.hitWindow("other", 3, 1_000, t0 + 1_050)).allowed).toBe(true);
      await store.close();
    });

    test("hitWindow never admits more than the limit under concurrent hits", async () => {
      const store = make();
      const hits = await Promise.all(
        Array.from({ length: 50 }, () => store.hitWindow("burst", 10, 60_000, 5_000)),
      );
      expect(hits.filter((hit) => hit.allowed)).toHaveLength(10);
      await store.close();
    });

    test("rankedInsert keeps the best entries, earlier first on ties, and reports ranks", async () => {
      const store = make();
      expect(await store.rankedInsert("b", 10, "a10", 3)).toBe(1);
      expect(await store.rankedInsert("b", 20, "b20", 3)).toBe(1);
      expect(await store.rankedInsert("b", 10, "c10", 3)).toBe(3);
      expect(await store.rankedTop("b", 10)).toEqual(["b20", "a10", "c10"]);
      // A tie with the last place does not displace the earlier entry.
      expect(await store.rankedInsert("b", 10, "d10", 3)).toBeNull();
      expect(await store.rankedInsert("b", 15, "e15", 3)).toBe(2);
      expect(await store.rankedTop("b", 10)).toEqual(["b20", "e15", "a10"]);
      expect(await store.rankedInsert("b", -1e308, "low", 3)).toBeNull();
      expect(await store.rankedInsert("b", 1e308, "huge", 3)).toBe(1);
      expect(await store.rankedInsert("b", 0.5, "half", 3)).toBeNull();
      expect(await store.rankedTop("b", 2)).toEqual(["huge", "b20"]);
      expect(await store.rankedTop("empty", 10)).toEqual([]);
      await store.close();
    });

    test("a ranking never holds more than `keep` entries, best first", async () => {
      const store = make();
      const scores = Array.from({ length: 300 }, () => Math.round(Math.random() * 1e4));
      for (const [i, score] of scores.entries())
        await store.rankedInsert("many", score, `${score}:${i}`, 10);
      const top = await store.rankedTop("many", 1_000);
      expect(top).toHaveLength(10);
      const topScores = top.map((payload) => Number(payload.split(":")[0]));
      expect(topScores).toEqual(scores.toSorted((a, b) => b - a).slice(0, 10));
      await store.close();
    });

    test("ping answers while the backend is up", async () => {
      const store = make();
      await store.ping();
      await store.close();
    });
  });
}

describe("memory store bounds", () => {
  test("a ranking holds at most `keep` entries however many arrive", async () => {
    const store = memoryStore();
    for (let i = 0; i < 20_000; i++)
      await store.rankedInsert("big", Math.random() * 1e6, String(i), 10);
    expect(store.sizes().ranked).toBe(10);
    await store.close();
  });

  test("the sweep drops expired keys and idle windows", async () => {
    const store = memoryStore({ sweepIntervalMs: 20 });
    await store.set("gone", "1", 10);
    await store.hitWindow("idle", 5, 10, Date.now());
    await Bun.sleep(80);
    expect(store.sizes()).toMatchObject({ keys: 0, windows: 0 });
    await store.close();
  });
});

describe.skipIf(!redis)("redis store specifics", () => {
  test("trimmed ranking entries leave no payloads behind in Redis", async () => {
    const prefix = uniquePrefix("trim");
    const store = redisStore(redis?.url ?? "", { prefix });
    for (let i = 0; i < 100; i++) await store.rankedInsert("t", i, `p${i}`, 10);
    const raw = new Bun.RedisClient(redis?.url ?? "");
    expect(await raw.send("ZCARD", [`${prefix}rank:t`])).toBe(10);
    expect(await raw.send("HLEN", [`${prefix}rank:t:payload`])).toBe(10);
    raw.close();
    await store.close();
  });

  test("an unreachable Redis fails fast with StoreUnavailableError", async () => {
    const store = redisStore("redis://app:s3cret@127.0.0.1:1", {
      prefix: "x:",
      commandTimeoutMs: 300,
    });
    const started = performance.now();
    const error = await store.ping().catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    // It says where it could not connect, for a readiness report; never the password.
    const { message } = error as Error;
    expect(message).toBe("redis PING: no connection to 127.0.0.1:1 within 300 ms");
    expect(message).not.toContain("s3cret");
    await store.close();
  });
});
