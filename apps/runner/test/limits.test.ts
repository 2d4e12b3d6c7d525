import { afterEach, describe, expect, test } from "bun:test";
import { get, problemOf } from "@platform/server/testing";
import type { App } from "../src/app.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import {
  ALL_LAYERS,
  bwrapPath,
  type RunBody,
  runRequest,
  settleProcesses,
  testApp,
} from "./support.ts";

const opened: SandboxRunner[] = [];
async function open(...args: Parameters<typeof testApp>): Promise<App> {
  const { app, runner } = await testApp(...args);
  opened.push(runner);
  return app;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((runner) => runner.close()));
});

const busyLoop = { code: "for (;;) {}", timeout: 1_500 };

describe.skipIf(!bwrapPath)("per-IP rate limit", () => {
  test("past RUNNER_RATE_LIMIT runs a minute: 429 with Retry-After and RateLimit headers", async () => {
    const app = await open(ALL_LAYERS, { runsPerMinute: 2 });
    for (let i = 0; i < 2; i++) {
      const ok = await app.handle(runRequest({ code: "console.log(1)" }));
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit-policy")).toBe('"runner-run";q=2;w=60');
    }
    const refused = await app.handle(runRequest({ code: "console.log(1)" }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await problemOf(refused)).code).toBe("RATE_LIMITED");
  });

  test("invalid requests count against the quota too", async () => {
    const app = await open(ALL_LAYERS, { runsPerMinute: 1 });
    expect((await app.handle(runRequest({}))).status).toBe(422);
    expect((await app.handle(runRequest({ code: "1" }))).status).toBe(429);
  });
});

describe.skipIf(!bwrapPath)("bounded concurrency and a short queue", () => {
  test("past the running runs and the queue: 503 RUNNER_BUSY with Retry-After", async () => {
    const app = await open(ALL_LAYERS, { maxConcurrency: 1, queueSize: 0 });
    const first = app.handle(runRequest(busyLoop));
    await Bun.sleep(50);
    const refused = await app.handle(runRequest({ code: "console.log(1)" }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await problemOf(refused)).code).toBe("RUNNER_BUSY");
    expect(((await (await first).json()) as RunBody).timedOut).toBe(true);
  });

  test("a queued run waits its turn and then runs", async () => {
    const app = await open(ALL_LAYERS, { maxConcurrency: 1, queueSize: 1 });
    const first = app.handle(runRequest({ code: "for (;;) {}", timeout: 400 }));
    await Bun.sleep(30);
    const queued = app.handle(runRequest({ code: "console.log('queued')" }));
    await Bun.sleep(30);
    const refused = await app.handle(runRequest({ code: "console.log(1)" }));
    expect(refused.status).toBe(503);
    const queuedBody = (await (await queued).json()) as RunBody;
    expect(queuedBody).toMatchObject({ output: "queued\n", error: null });
    expect((await first).status).toBe(200);
  });
});

describe.skipIf(!bwrapPath)("warm pool", () => {
  test("one run's pollution is gone in the next (a fresh worker, even in a kept sandbox)", async () => {
    const app = await open(ALL_LAYERS, { poolSize: 1 });
    const polluted = await app.handle(
      runRequest({ code: "Object.prototype.leak = 'from run 1'; console.log(({}).leak)" }),
    );
    expect(((await polluted.json()) as RunBody).output).toBe("from run 1\n");
    const clean = await app.handle(runRequest({ code: "console.log(String(({}).leak))" }));
    expect(((await clean.json()) as RunBody).output).toBe("undefined\n");
  });

  test("the pool keeps its size: used sandboxes are gone, fresh ones wait", async () => {
    const app = await open(ALL_LAYERS, { poolSize: 2 });
    for (let i = 0; i < 4; i++) await app.handle(runRequest({ code: "console.log(1)" }));
    // Two warm sandboxes and the one kept for this client, of two processes each (bwrap, and
    // Bun as pid 1 inside), no more.
    const left = await settleProcesses(6);
    expect(left.length).toBeLessThanOrEqual(6);
  });

  test("when no sandbox can start: 503 SANDBOX_UNAVAILABLE, and readiness fails", async () => {
    const app = await open(ALL_LAYERS, {
      bunPath: "/nonexistent/bun",
      acquireTimeoutMs: 300,
    });
    const refused = await app.handle(runRequest({ code: "console.log(1)" }));
    expect(refused.status).toBe(503);
    expect((await problemOf(refused)).code).toBe("SANDBOX_UNAVAILABLE");
    await Bun.sleep(500);
    const ready = await app.handle(get("/health/ready"));
    expect(ready.status).toBe(503);
    expect((await problemOf(ready)).code).toBe("NOT_READY");
  });
});

describe.skipIf(!bwrapPath)("health", () => {
  test("ready reports every layer and the pool; live answers", async () => {
    const app = await open(ALL_LAYERS, { poolSize: 1 });
    const ready = await app.handle(get("/health/ready"));
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as {
      layers: Record<string, { on: boolean }>;
      pool: { ready: number };
    };
    expect(Object.keys(body.layers).sort()).toEqual(
      ["lockdown", "namespaces", "rlimits", "seccomp", "static"].sort(),
    );
    expect(Object.values(body.layers).every((layer) => layer.on)).toBe(true);
    expect((await app.handle(get("/health/live"))).status).toBe(200);
  });
});
