import { afterAll, describe, expect, test } from "bun:test";
import {
  createRateLimiter,
  memoryStore,
  rateLimitHeaders,
  redisStore,
  type SharedStore,
} from "../src/index.ts";
import { startRedis, uniquePrefix } from "./support/index.ts";

const redis = await startRedis();
afterAll(() => redis?.stop());

const policy = { name: "bench", limit: 10, windowMs: 60_000 };
const backends: [string, () => SharedStore][] = [["memory", () => memoryStore()]];
if (redis) backends.push(["redis", () => redisStore(redis.url, { prefix: uniquePrefix("rl") })]);

for (const [name, make] of backends) {
  describe(`sliding-log limiter on ${name}`, () => {
    test("the 10th request passes, the 11th is refused with the exact wait", async () => {
      let now = 1_700_000_000_000;
      const limiter = createRateLimiter(make(), policy, () => now);
      for (let i = 1; i <= 10; i++) {
        const decision = await limiter.check("1.2.3.4");
        // The oldest request (made at the start) frees its slot 60 s after it was made.
        expect(decision).toEqual({ allowed: true, remaining: 10 - i, resetSeconds: 61 - i });
        now += 1_000;
      }
      // 10 s after the first request: it leaves the window in 50 s.
      const refused = await limiter.check("1.2.3.4");
      expect(refused).toEqual({ allowed: false, remaining: 0, resetSeconds: 50 });
      expect(rateLimitHeaders(policy, refused)["retry-after"]).toBe("50");
    });

    test("quota comes back one request at a time as the window slides", async () => {
      let now = 0;
      const limiter = createRateLimiter(make(), policy, () => now);
      for (let i = 0; i < 10; i++) {
        await limiter.check("k");
        now += 1_000; // requests at 0 s, 1 s, ... 9 s
      }
      now = 59_999;
      expect((await limiter.check("k")).allowed).toBe(false);
      now = 60_000; // the request made at 0 s has left
      expect(await limiter.check("k")).toMatchObject({ allowed: true, remaining: 0 });
      expect((await limiter.check("k")).allowed).toBe(false);
      now = 61_000; // and the one made at 1 s
      expect((await limiter.check("k")).allowed).toBe(true);
    });

    test("no double burst across what would be a fixed-window boundary", async () => {
      let now = 59_000;
      const limiter = createRateLimiter(make(), policy, () => now);
      for (let i = 0; i < 10; i++) expect((await limiter.check("edge")).allowed).toBe(true);
      now = 61_000; // a fixed window would have reset at 60 s
      expect((await limiter.check("edge")).allowed).toBe(false);
    });

    test("keys are counted apart", async () => {
      const limiter = createRateLimiter(make(), { ...policy, limit: 1 }, () => 0);
      expect((await limiter.check("a")).allowed).toBe(true);
      expect((await limiter.check("b")).allowed).toBe(true);
      expect((await limiter.check("a")).allowed).toBe(false);
    });
  });
}

describe.skipIf(!redis)("replicas on one Redis", () => {
  test("two limiters with their own connections enforce one limit", async () => {
    const prefix = uniquePrefix("replicas");
    const a = createRateLimiter(redisStore(redis?.url ?? "", { prefix }), policy);
    const b = createRateLimiter(redisStore(redis?.url ?? "", { prefix }), policy);
    const decisions = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).check("9.9.9.9")),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  });
});

describe("rateLimitHeaders", () => {
  test("IETF RateLimit-Policy and RateLimit structured fields", () => {
    expect(rateLimitHeaders(policy, { allowed: true, remaining: 7, resetSeconds: 42 })).toEqual({
      "ratelimit-policy": '"bench";q=10;w=60',
      ratelimit: '"bench";r=7;t=42',
    });
  });
});
