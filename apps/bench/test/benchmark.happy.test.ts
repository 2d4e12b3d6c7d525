import { afterAll, describe, expect, test } from "bun:test";
import {
  BENCHMARK_ITERATIONS,
  BENCHMARK_TYPES,
  BenchmarkResult,
  type BenchmarkType,
} from "@platform/contracts/benchmark";
import { get } from "@platform/server/testing";
import { Value } from "@sinclair/typebox/value";
import { kernels } from "../src/kernels/index.ts";
import { WARMUP_ITERATIONS } from "../src/modules/benchmark/model.ts";
import { CHECKSUM_SEED, foldChecksum } from "../src/runner/measure.ts";
import { benchApp, benchmarkRequest, listening } from "./support.ts";

const bench = benchApp();
const { app } = bench;
afterAll(() => bench.close());

/** The checksum a run must report: every result of warm-up and timed iterations, folded. */
function expectedChecksum(type: BenchmarkType): number {
  const kernel = kernels[type]();
  let checksum = CHECKSUM_SEED;
  for (let i = 0; i < WARMUP_ITERATIONS + BENCHMARK_ITERATIONS; i++) {
    checksum = foldChecksum(checksum, kernel(i));
  }
  return checksum;
}

describe("POST /api/benchmark", () => {
  for (const type of BENCHMARK_TYPES) {
    test(`${type}: the spec's fields, consistent statistics, the work really done`, async () => {
      const before = Date.now();
      const response = await app.handle(benchmarkRequest({ type }));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      const body = (await response.json()) as BenchmarkResult;
      expect(Value.Check(BenchmarkResult, body)).toBe(true);

      expect(body.type).toBe(type);
      expect(body.iterations).toBe(10_000);
      expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const ranAt = Date.parse(body.timestamp);
      expect(ranAt).toBeGreaterThanOrEqual(before);
      expect(ranAt).toBeLessThanOrEqual(Date.now());

      // executionTime is the total of the timed iterations; the mean is derived from it.
      const stats = body.perIteration;
      if (!stats) throw new Error("perIteration missing");
      expect(body.executionTime).toBeGreaterThan(0);
      expect(stats.mean).toBeCloseTo(body.executionTime / body.iterations, 2);
      expect(body.opsPerSecond ?? 0).toBeCloseTo(body.iterations / (body.executionTime / 1e6), 0);
      expect(stats.min).toBeGreaterThan(0);
      expect(stats.min).toBeLessThanOrEqual(stats.median);
      expect(stats.median).toBeLessThanOrEqual(stats.p99);
      expect(stats.p99).toBeLessThanOrEqual(stats.max);
      expect(stats.mean).toBeGreaterThanOrEqual(stats.min);
      expect(stats.mean).toBeLessThanOrEqual(stats.max);
      // Ten thousand iterations at the fastest one's pace: a lower bound any honest total meets.
      expect(body.executionTime).toBeGreaterThanOrEqual(stats.min * body.iterations - 0.01);

      expect(body.warmupIterations).toBe(WARMUP_ITERATIONS);
      expect(body.checksum).toBe(expectedChecksum(type));
      // A fresh app has no history of the type yet, so its first run is the answer.
      expect(body.attempts).toBe(1);
      expect(body.runtime).toEqual({
        name: "bun",
        version: Bun.version,
        platform: process.platform,
        arch: process.arch,
      });
      expect(body.cpu?.cores).toBeGreaterThanOrEqual(1);
      expect(body.cpu?.model.length).toBeGreaterThan(0);
    });
  }

  test("unknown body fields are ignored", async () => {
    const response = await app.handle(benchmarkRequest({ type: "crypto", iterations: 5 }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as BenchmarkResult).iterations).toBe(10_000);
  });
});

describe("runs happen off the request thread, one at a time", () => {
  test("concurrent requests are run one after the other, never overlapping", async () => {
    const own = benchApp();
    const responses = await Promise.all(
      (["json", "string", "array"] as const).map((type) =>
        own.app.handle(benchmarkRequest({ type })),
      ),
    );
    await own.close();
    const results = await Promise.all(
      responses.map(async (response) => {
        expect(response.status).toBe(200);
        return (await response.json()) as BenchmarkResult;
      }),
    );
    const ordered = results.toSorted((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
    for (let i = 1; i < ordered.length; i++) {
      const previous = ordered[i - 1];
      const current = ordered[i];
      if (!previous || !current) throw new Error("missing result");
      // A run starts only after the previous one's timed section (and more) is over.
      const gapMs = Date.parse(current.timestamp) - Date.parse(previous.timestamp);
      expect(gapMs).toBeGreaterThanOrEqual(Math.floor(previous.executionTime / 1_000));
    }
  });

  test("the server keeps answering other requests while a benchmark runs", async () => {
    const own = benchApp();
    const server = await listening(own);
    try {
      let settled = false;
      const run = server.post({ type: "crypto" }).then((response) => {
        settled = true;
        return response;
      });
      while (!own.runner.busy) await Bun.sleep(1);
      let answeredDuringRun = 0;
      while (!settled) {
        const health = await fetch(`${server.base}/health/live`);
        expect(health.status).toBe(200);
        if (own.runner.busy && !settled) answeredDuringRun++;
      }
      expect((await run).status).toBe(200);
      expect(answeredDuringRun).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe("health", () => {
  test("live and ready answer 200 with the store checked", async () => {
    expect((await app.handle(get("/health/live"))).status).toBe(200);
    const ready = await app.handle(get("/health/ready"));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", service: "bench", checks: { store: "ok" } });
  });
});
