import { afterEach, describe, expect, test } from "bun:test";
import { BENCHMARK_TYPES } from "@platform/contracts/benchmark";
import { problemOf } from "@platform/server/testing";
import { benchApp, benchmarkRequest, type TestApp } from "./support.ts";

const POLICY = '"benchmark";q=10;w=60';
const INVALID = { type: "not-a-benchmark" };

let opened: TestApp[] = [];
afterEach(async () => {
  await Promise.all(opened.map((bench) => bench.close()));
  opened = [];
});

/** An app on the test store (memory, or Redis under CI's second pass) with a hand-set clock. */
function clockedApp() {
  const clock = { now: 1_800_000_000_000 };
  const bench = benchApp({ now: () => clock.now });
  opened.push(bench);
  return { ...bench, clock };
}

describe("10 requests per minute per client", () => {
  test("the 10th request passes, the 11th is refused with an exact Retry-After", async () => {
    const { app, clock, runner } = clockedApp();
    for (let n = 1; n <= 10; n++) {
      const type = BENCHMARK_TYPES[n % BENCHMARK_TYPES.length];
      const response = await app.handle(benchmarkRequest({ type }));
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toBe(POLICY);
      // The first request (at 0 s) frees its slot 60 s after it was made.
      expect(response.headers.get("ratelimit")).toBe(`"benchmark";r=${10 - n};t=${61 - n}`);
      clock.now += 1_000;
    }
    const lastRun = runner.lastRunMs;
    const refused = await app.handle(benchmarkRequest({ type: "json" }));
    expect(refused.status).toBe(429);
    // 10 s after the first request: it leaves the window in 50 s.
    expect(refused.headers.get("retry-after")).toBe("50");
    expect(refused.headers.get("ratelimit")).toBe('"benchmark";r=0;t=50');
    expect(refused.headers.get("ratelimit-policy")).toBe(POLICY);
    const problem = await problemOf(refused);
    expect(problem.status).toBe(429);
    expect(problem.code).toBe("RATE_LIMITED");
    expect(problem.detail).toContain("retry in 50 s");
    // Nothing was run for the refused request.
    expect(runner.busy).toBe(false);
    expect(runner.lastRunMs).toBe(lastRun);
    // Ten real benchmark runs: on a loaded 2-core machine they took more than the default 5 s.
  }, 30_000);

  test("the quota comes back one request at a time as the window slides", async () => {
    const { app, clock } = clockedApp();
    const start = clock.now;
    for (let n = 0; n < 10; n++) {
      clock.now = start + n * 1_000; // requests at 0 s, 1 s, ... 9 s
      expect((await app.handle(benchmarkRequest(INVALID))).status).toBe(422);
    }
    clock.now = start + 59_999;
    const almost = await app.handle(benchmarkRequest(INVALID));
    expect(almost.status).toBe(429);
    expect(almost.headers.get("retry-after")).toBe("1");

    clock.now = start + 60_000; // the request made at 0 s has left the window
    const back = await app.handle(benchmarkRequest({ type: "string" }));
    expect(back.status).toBe(200);
    expect(back.headers.get("ratelimit")).toBe('"benchmark";r=0;t=1');
    const again = await app.handle(benchmarkRequest(INVALID));
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toBe("1");

    clock.now = start + 61_000; // and the one made at 1 s
    expect((await app.handle(benchmarkRequest(INVALID))).status).toBe(422);
    clock.now = start + 61_500;
    expect((await app.handle(benchmarkRequest(INVALID))).status).toBe(429);
  });

  test("no double burst where a fixed window would reset", async () => {
    const { app, clock } = clockedApp();
    clock.now = 1_800_000_059_000; // one second before a minute boundary
    for (let n = 0; n < 10; n++) {
      expect((await app.handle(benchmarkRequest(INVALID))).status).toBe(422);
    }
    clock.now += 2_000; // past the boundary a fixed window would have reset at
    const refused = await app.handle(benchmarkRequest(INVALID));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("58");
  });

  test("invalid and refused requests count, and refusals do not extend the wait", async () => {
    const { app, clock } = clockedApp();
    for (let n = 0; n < 10; n++) await app.handle(benchmarkRequest(INVALID));
    for (let n = 0; n < 5; n++) {
      clock.now += 10_000;
      const refused = await app.handle(benchmarkRequest({ type: "json" }));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe(String(60 - (n + 1) * 10));
    }
  });

  test("RateLimit headers ride on every answer: success, 400, 413, 415, 422", async () => {
    const { app } = clockedApp();
    const ok = await app.handle(benchmarkRequest({ type: "crypto" }));
    const invalid = await app.handle(benchmarkRequest(INVALID));
    const malformed = await app.handle(benchmarkRequest("{"));
    const tooLarge = await app.handle(benchmarkRequest({ type: "json", pad: "x".repeat(10_000) }));
    const wrongType = await app.handle(benchmarkRequest("{}", { "content-type": "text/plain" }));
    expect([ok, malformed, tooLarge, wrongType, invalid].map((r) => r.status)).toEqual([
      200, 400, 413, 415, 422,
    ]);
    for (const response of [ok, malformed, tooLarge, wrongType, invalid]) {
      expect(response.headers.get("ratelimit-policy")).toBe(POLICY);
      expect(response.headers.get("ratelimit")).toMatch(/^"benchmark";r=\d+;t=\d+$/);
      expect(response.headers.has("retry-after")).toBe(false);
    }
    // All five counted: five more and the quota of ten is spent.
    for (let i = 0; i < 5; i++) await app.handle(benchmarkRequest("{"));
    expect((await app.handle(benchmarkRequest({ type: "json" }))).status).toBe(429);
  });
});
