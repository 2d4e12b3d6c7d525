import { afterAll, describe, expect, test } from "bun:test";
import { redisStore } from "@platform/server";
import { freePort, get, problemOf, startRedis, uniquePrefix } from "@platform/server/testing";
import { benchApp, benchmarkRequest, type TestApp } from "./support.ts";

const redis = await startRedis();
afterAll(() => redis?.stop());

describe.skipIf(!redis)("two replicas on one Redis", () => {
  test("share one limit: 10 requests in total pass, whichever replica gets them", async () => {
    const prefix = uniquePrefix("bench-replicas");
    // Each replica has its own connection, as two processes would.
    const replicas: TestApp[] = [0, 1].map(() =>
      benchApp({ store: redisStore(redis?.url ?? "", { prefix }) }),
    );
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 11; n++) {
        const replica = replicas[n % 2];
        if (!replica) throw new Error("no replica");
        // Two real runs (one per replica), the rest invalid: every request counts the same.
        const body = n < 2 ? { type: "crypto" } : { type: "invalid" };
        const response = await replica.app.handle(benchmarkRequest(body));
        statuses.push(response.status);
        expect(response.headers.get("ratelimit")).toStartWith(
          `"benchmark";r=${Math.max(0, 9 - n)};`,
        );
      }
      expect(statuses).toEqual([200, 200, ...Array<number>(8).fill(422), 429]);
      // The other replica refuses too.
      const other = await replicas[0]?.app.handle(benchmarkRequest({ type: "json" }));
      expect(other?.status).toBe(429);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });

  test("concurrent requests across replicas never let more than 10 through", async () => {
    const prefix = uniquePrefix("bench-race");
    const replicas = [0, 1].map(() =>
      benchApp({ store: redisStore(redis?.url ?? "", { prefix }) }),
    );
    try {
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, n) =>
          replicas[n % 2]?.app.handle(benchmarkRequest({ type: "invalid" })),
        ),
      );
      const counts = { allowed: 0, refused: 0 };
      for (const response of responses) {
        if (response?.status === 422) counts.allowed++;
        if (response?.status === 429) counts.refused++;
      }
      expect(counts).toEqual({ allowed: 10, refused: 20 });
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });
});

describe("Redis unreachable: fail closed", () => {
  async function unreachable() {
    // A port nothing listens on: connections are refused at once.
    const url = `redis://127.0.0.1:${await freePort()}`;
    return benchApp({ store: redisStore(url, { prefix: "bench:", commandTimeoutMs: 500 }) });
  }

  test("a benchmark request is answered 503 with Retry-After and nothing is run", async () => {
    const bench = await unreachable();
    try {
      const response = await bench.app.handle(benchmarkRequest({ type: "json" }));
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      const problem = await problemOf(response);
      expect(problem.code).toBe("SERVICE_UNAVAILABLE");
      expect(problem.detail).not.toContain("127.0.0.1");
      expect(bench.runner.busy).toBe(false);
      expect(bench.runner.lastRunMs).toBe(0);
    } finally {
      await bench.close();
    }
  });

  test("readiness reports the store as failing; liveness still answers", async () => {
    const bench = await unreachable();
    try {
      const ready = await bench.app.handle(get("/health/ready"));
      expect(ready.status).toBe(503);
      const problem = (await problemOf(ready)) as Awaited<ReturnType<typeof problemOf>> & {
        checks: Record<string, string>;
      };
      expect(problem.code).toBe("NOT_READY");
      expect(problem.checks.store).not.toBe("ok");
      expect((await bench.app.handle(get("/health/live"))).status).toBe(200);
    } finally {
      await bench.close();
    }
  });
});
