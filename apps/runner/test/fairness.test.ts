/**
 * One client cannot take the runner from the others: a cap on its runs at once, a budget of
 * sandbox time per minute, and a queue that serves the client with the fewest runs going first.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { BudgetSpentError, createClientBudget } from "../src/sandbox/budget.ts";
import { ClientBusyError, createGate } from "../src/sandbox/gate.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { ALL_LAYERS, bwrapPath, runRequest, testApp, testRunner } from "./support.ts";

const SLEEPER = "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);";

const opened: SandboxRunner[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((runner) => runner.close()));
});

describe("the gate", () => {
  /** A task that runs until released, recording its start. */
  const controlled = () => {
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const task = (name: string) => () =>
      new Promise<void>((resolve) => {
        order.push(name);
        releases.set(name, resolve);
      });
    const release = async (name: string) => {
      releases.get(name)?.();
      await Bun.sleep(0);
    };
    return { order, task, release };
  };

  test("a freed slot goes to the waiting client with the fewest runs going", async () => {
    const gate = createGate({ maxRunning: 3, maxQueued: 10, perClient: 5 });
    const { order, task, release } = controlled();
    const runs = [
      gate.run("hog", task("hog-1")),
      gate.run("hog", task("hog-2")),
      gate.run("other", task("other-1")),
      gate.run("hog", task("hog-3")),
      gate.run("polite", task("polite-1")),
    ];
    await Bun.sleep(0);
    expect(order).toEqual(["hog-1", "hog-2", "other-1"]);
    await release("hog-1");
    // hog has one run going and polite none: polite first, though it came later.
    expect(order).toEqual(["hog-1", "hog-2", "other-1", "polite-1"]);
    for (const name of ["hog-2", "other-1", "polite-1"]) await release(name);
    await release("hog-3");
    await Promise.all(runs);
    expect(order).toEqual(["hog-1", "hog-2", "other-1", "polite-1", "hog-3"]);
  });

  test("the last free slot is kept for a client with no run going", async () => {
    const gate = createGate({ maxRunning: 3, maxQueued: 10, perClient: 5 });
    const { order, task, release } = controlled();
    const runs = [
      gate.run("a", task("a-1")),
      gate.run("a", task("a-2")),
      gate.run("a", task("a-3")),
      gate.run("b", task("b-1")),
      gate.run("c", task("c-1")),
    ];
    await Bun.sleep(0);
    // a-3 would take the last slot while a has runs going: b, which has none, takes it.
    expect(order).toEqual(["a-1", "a-2", "b-1"]);
    await release("b-1");
    expect(order).toEqual(["a-1", "a-2", "b-1", "c-1"]);
    for (const name of ["a-1", "a-2", "c-1"]) await release(name);
    await release("a-3");
    await Promise.all(runs);
  });

  test("past its cap, a client is refused at once; the others are not", async () => {
    const gate = createGate({ maxRunning: 4, maxQueued: 4, perClient: 1 });
    let release = () => {};
    const first = gate.run("a", () => new Promise<void>((resolve) => (release = resolve)));
    await expect(gate.run("a", async () => {})).rejects.toBeInstanceOf(ClientBusyError);
    await gate.run("b", async () => {});
    release();
    await first;
    await gate.run("a", async () => {});
  });
});

describe("the sandbox-time budget", () => {
  test("spent within the window: refused until the oldest runs leave it", () => {
    let now = 1_000_000;
    const budget = createClientBudget({ msPerWindow: 1_000, now: () => now });
    budget.charge("a", 600);
    now += 10_000;
    budget.charge("a", 500);
    let refusal: unknown;
    try {
      budget.check("a");
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(BudgetSpentError);
    // The first 600 ms leave the window 50 s from now; then 500 ms remain, under budget.
    expect((refusal as BudgetSpentError).retryAfterSeconds).toBe(50);
    budget.check("b");
    now += 50_000;
    budget.check("a");
  });
});

describe.skipIf(!bwrapPath)("through the runner", () => {
  test("with one client at its maximum of sleeping runs, another's run answers within 1 s", async () => {
    const runner = await testRunner(ALL_LAYERS, {
      poolSize: 2,
      maxConcurrency: 4,
      perClientMaxRuns: 2,
      checkers: 2,
    });
    opened.push(runner);
    const sleeping = [runner.run(SLEEPER, 3_000, "hog"), runner.run(SLEEPER, 3_000, "hog")];
    await Bun.sleep(300);
    expect(runner.stats().running).toBe(2);
    await expect(runner.run("console.log(1)", 1_000, "hog")).rejects.toBeInstanceOf(
      ClientBusyError,
    );
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const result = await runner.run("console.log(1)", 1_000, "polite");
      expect(result).toMatchObject({ output: "1\n", error: null });
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    for (const result of await Promise.all(sleeping)) expect(result.timedOut).toBe(true);
  });

  test("429 CLIENT_RUNS_EXCEEDED past the per-client cap, with Retry-After", async () => {
    const { app, runner } = await testApp(ALL_LAYERS, { perClientMaxRuns: 1 });
    opened.push(runner);
    const sleeping = app.handle(runRequest({ code: SLEEPER, timeout: 500 }));
    await Bun.sleep(100);
    const refused = await app.handle(runRequest({ code: "console.log(1)" }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await problemOf(refused)).code).toBe("CLIENT_RUNS_EXCEEDED");
    expect((await sleeping).status).toBe(200);
  });

  test("429 SANDBOX_TIME_EXCEEDED once a client's runs used its budget", async () => {
    const { app, runner } = await testApp(ALL_LAYERS, { clientSandboxMsPerMinute: 1_000 });
    opened.push(runner);
    const slept = await app.handle(runRequest({ code: SLEEPER, timeout: 1_200 }));
    expect(slept.status).toBe(200);
    const refused = await app.handle(runRequest({ code: "console.log(1)" }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
    const problem = await problemOf(refused);
    expect(problem.code).toBe("SANDBOX_TIME_EXCEEDED");
    expect(problem.detail).toContain("the budget is 1000 ms");
  });
});
