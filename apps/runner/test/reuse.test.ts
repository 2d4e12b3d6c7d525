/**
 * Sandboxes reused by one client (kept.ts, child/supervisor.ts): a client that keeps coming back
 * gets a reusable sandbox, and its runs there leave nothing to the next one; another client
 * never gets it; a run that did not end cleanly, or a sandbox past its runs, its idle time or
 * its headroom, is not reused; each run keeps its whole memory allowance and its limits.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { applyLimits } from "../src/sandbox/limits.ts";
import { REUSE_HEADROOM_BYTES, readmit } from "../src/sandbox/readiness.ts";
import type { RunnerConfig, SandboxRunner } from "../src/sandbox/runner.ts";
import { defaultLimits } from "../src/sandbox/setup.ts";
import { ALL_LAYERS, bwrapPath, reusableSandboxProcesses, testRunner } from "./support.ts";

async function until(condition: () => boolean, what: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/**
 * Two clean runs get `client` a reusable sandbox; returns its process once it waits for the
 * third (the tests that call this have no other reusable sandbox at the time).
 */
async function reusableFor(runner: SandboxRunner, client: string) {
  for (let i = 0; i < 2; i++) {
    expect((await runner.run("console.log(1)", 2_000, client)).error).toBeNull();
  }
  await until(() => runner.stats().kept >= 1, "a kept sandbox");
  const [sandbox] = reusableSandboxProcesses();
  if (!sandbox) throw new Error("no reusable sandbox");
  return sandbox;
}

/** Until no replacement is due or starting (one is scheduled on the turn after a run). */
async function poolSettled(runner: SandboxRunner) {
  await Bun.sleep(50);
  await until(() => runner.stats().starting === 0, "the pool to settle");
}

/** Runs `code` for `client` and says whether a kept sandbox served it (no sandbox started). */
async function runCounted(runner: SandboxRunner, code: string, client: string) {
  await poolSettled(runner);
  const before = runner.stats().started;
  const result = await runner.run(code, 2_000, client);
  // A single-use sandbox taken is replaced at once (a reusable one is not).
  await poolSettled(runner);
  return { result, reused: runner.stats().started === before };
}

function withRunner(overrides: Partial<RunnerConfig> = {}) {
  const state: { runner?: SandboxRunner } = {};
  beforeAll(async () => {
    if (!bwrapPath) return;
    state.runner = await testRunner(ALL_LAYERS, { poolSize: 2, ...overrides });
  });
  afterAll(() => state.runner?.close());
  return () => {
    if (!state.runner) throw new Error("runner not started");
    return state.runner;
  };
}

describe.skipIf(!bwrapPath)("a client that keeps coming back", () => {
  const runner = withRunner();

  test("gets a reusable sandbox, and runs there one after another", async () => {
    await reusableFor(runner(), "alice");
    expect(reusableSandboxProcesses().length).toBe(1);
    for (let i = 0; i < 5; i++) {
      const { result, reused } = await runCounted(runner(), `console.log(${i} * 2)`, "alice");
      expect(result).toMatchObject({ output: `${i * 2}\n`, error: null, timedOut: false });
      expect(reused).toBe(true);
    }
  });

  test("nothing one run did is there for the next: a fresh VM each time", async () => {
    await reusableFor(runner(), "alice");
    const polluted = await runCounted(
      runner(),
      `Object.prototype.leak = "run 1"; Array.prototype.push = () => 0; Math.random = () => 4;
       JSON.stringify = () => "x"; Symbol.for("shared").description;
       console.log(({}).leak, [].push(1), Math.random())`,
      "alice",
    );
    expect(polluted.result.output).toBe("run 1 0 4\n");
    const next = await runCounted(
      runner(),
      `const a = []; a.push(1);
       console.log(String(({}).leak), a.length, Math.random() < 1, JSON.stringify({ a: 1 }))`,
      "alice",
    );
    expect(next.reused).toBe(true);
    expect(next.result.output).toBe('undefined 1 true {"a":1}\n');
  });

  test("one run's output never spills into the next", async () => {
    await reusableFor(runner(), "alice");
    const big = await runCounted(runner(), `console.log("x".repeat(60_000))`, "alice");
    expect(big.result.output).toBe(`${"x".repeat(60_000)}\n`);
    const small = await runCounted(runner(), `console.log("y")`, "alice");
    expect(small).toMatchObject({ reused: true, result: { output: "y\n", error: null } });
  });

  test("an error the program throws is an ordinary end: the sandbox is kept", async () => {
    await reusableFor(runner(), "alice");
    const thrown = await runCounted(runner(), `throw new TypeError("nope")`, "alice");
    expect(thrown.result.error).toBe("TypeError: nope");
    const after = await runCounted(runner(), `console.log("after")`, "alice");
    expect(after).toMatchObject({ reused: true, result: { output: "after\n" } });
  });

  test("each run has its whole memory allowance, and no more", async () => {
    await reusableFor(runner(), "alice");
    // 128 MiB in the tests (96 beyond the allocator's own reserve): 80 MiB of address space
    // held to the end fits, run after run, though the sandbox maps more after its first workers
    // (the limit moves with it, readiness.ts); 200 MiB does not. Untouched, so the run stays
    // under the CPU that would demote it.
    const hold = "const keep = new ArrayBuffer(80 << 20); console.log(keep.byteLength >> 20)";
    for (let i = 0; i < 5; i++) {
      const { result, reused } = await runCounted(runner(), hold, "alice");
      expect(result).toMatchObject({ output: "80\n", error: null });
      expect(reused).toBe(true);
    }
    const tooMuch = await runner().run("new ArrayBuffer(200 << 20)", 2_000, "alice");
    expect(tooMuch.error).toMatch(/Out of memory/);
  });
});

describe.skipIf(!bwrapPath)("another client never gets it", () => {
  const runner = withRunner();

  test("a second client's runs go to sandboxes of its own", async () => {
    const alice = await reusableFor(runner(), "alice");
    const bob = await runCounted(runner(), "console.log('bob')", "bob");
    expect(bob).toMatchObject({ reused: false, result: { output: "bob\n" } });
    // Bob's own comes after his second clean run, and is not Alice's.
    await runner().run("console.log('bob')", 2_000, "bob");
    await until(() => reusableSandboxProcesses().length === 2, "bob's reusable sandbox");
    expect(reusableSandboxProcesses().map(({ pid }) => pid)).toContain(alice.pid);
    const again = await runCounted(runner(), "console.log('alice')", "alice");
    expect(again).toMatchObject({ reused: true, result: { output: "alice\n" } });
  });

  test("runs without a client are never given a kept sandbox", async () => {
    const before = runner().stats().started;
    await runner().run("console.log(1)", 2_000);
    await Bun.sleep(30);
    expect(runner().stats().started).toBe(before + 1);
  });
});

describe.skipIf(!bwrapPath)("what ends a reusable sandbox", () => {
  const runner = withRunner({ runsPerSandbox: 4, sandboxIdleMs: 1_500 });

  const cases: [string, string, number?][] = [
    ["a blocked capability", "fetch('http://127.0.0.1/')"],
    ["a time-out", "for (;;) {}", 300],
    ["output past the cap", "for (;;) console.log('x'.repeat(1000))"],
    [
      "a run that spins long enough to be demoted",
      // About 40 ms of CPU however busy the machine is (a wall-clock loop might get less).
      "let x = 0; for (let i = 0; i < 5e7; i++) x += i; console.log(x > 0)",
    ],
    ["an error too big to report", `throw new Error("x".repeat(8e6) + "y".repeat(8e6))`],
  ];
  for (const [name, code, timeout] of cases) {
    test(`${name}: the sandbox is stopped, not reused`, async () => {
      const sandbox = await reusableFor(runner(), `client-${name}`);
      await runner().run(code, timeout ?? 2_000, `client-${name}`);
      await until(
        () => !reusableSandboxProcesses().some(({ pid }) => pid === sandbox.pid),
        "the sandbox to be stopped",
      );
      expect(runner().stats().kept).toBe(0);
    });
  }

  test("its last run (RUNNER_SANDBOX_RUNS)", async () => {
    const sandbox = await reusableFor(runner(), "counted");
    // Its first run was the one after it started; four in all.
    for (let i = 0; i < 4; i++) await runner().run("console.log(1)", 2_000, "counted");
    await until(
      () => !reusableSandboxProcesses().some(({ pid }) => pid === sandbox.pid),
      "its end",
    );
  });

  test("idle for RUNNER_SANDBOX_IDLE_MS", async () => {
    await reusableFor(runner(), "idle");
    expect(reusableSandboxProcesses().length).toBe(1);
    await until(
      () => reusableSandboxProcesses().length === 0,
      "the idle sandbox to be stopped",
      4_000,
    );
    expect(runner().stats().kept).toBe(0);
  });
});

describe.skipIf(!bwrapPath)("a demoted run is demoted where it runs: the worker's thread", () => {
  const runner = withRunner();

  test("SCHED_IDLE on the thread running the program, during the run", async () => {
    const sandbox = await reusableFor(runner(), "spinner");
    // Several hundred ms of CPU, looked at while it runs: the worker's thread goes to policy 5,
    // SCHED_IDLE, once the run has used 10 ms.
    let done = false;
    const running = runner()
      .run("let x = 0; for (let i = 0; i < 1e9; i++) x += i; console.log(x > 0)", 5_000, "spinner")
      .finally(() => {
        done = true;
      });
    const policyOf = (tid: string) =>
      /^policy\s*:\s*(\d+)/m.exec(
        readFileSync(`/proc/${sandbox.pid}/task/${tid}/sched`, "utf8"),
      )?.[1];
    let seen: string | undefined;
    while (!done && seen !== "5") {
      await Bun.sleep(10);
      try {
        for (const tid of readdirSync(`/proc/${sandbox.pid}/task`)) {
          const name = readFileSync(`/proc/${sandbox.pid}/task/${tid}/comm`, "utf8").trim();
          if (name === "Worker") seen = policyOf(tid);
        }
      } catch {
        // A thread ended between the listing and the read.
      }
    }
    expect(seen).toBe("5");
    await running;
  });
});

describe("readmitting a used sandbox (on live processes)", () => {
  const limits = defaultLimits(64);

  test("refused once most of its CPU time limit is used", () => {
    // This test process has used more than a few ms; a 6 s limit leaves none past the reserve.
    const admission = { pid: process.pid, mappedBytes: 0, limits: { ...limits, cpuSeconds: 6 } };
    expect(readmit(admission)).toMatch(/CPU time limit/);
  });

  test("refused once its address space grew past the headroom; else the limit moves", async () => {
    const child = Bun.spawn(["sleep", "30"], { stdout: "ignore", stderr: "ignore" });
    try {
      await Bun.sleep(100); // until sleep(1) has mapped what it maps
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const mapped = Number(/^VmSize:\s+(\d+)/m.exec(status)?.[1]) * 1024;
      // As if admitted when it mapped 1 MiB less: the soft limit follows it up, under the hard.
      expect(applyLimits(child.pid, limits, mapped - 2 ** 20, REUSE_HEADROOM_BYTES)).toEqual([]);
      const admission = { pid: child.pid, mappedBytes: mapped - 2 ** 20, limits };
      expect(readmit(admission)).toBeUndefined();
      const row = readFileSync(`/proc/${child.pid}/limits`, "utf8")
        .split("\n")
        .find((line) => line.startsWith("Max address space"));
      const [soft, hard] = (row?.match(/\d+/g) ?? []).map(Number);
      const allowance = (64 - 32) * 2 ** 20;
      expect(soft).toBe(mapped + allowance);
      expect(hard).toBe(mapped - 2 ** 20 + allowance + REUSE_HEADROOM_BYTES);
      // Admitted far smaller than it is now: past the headroom.
      const grown = {
        pid: child.pid,
        mappedBytes: mapped - REUSE_HEADROOM_BYTES - 2 ** 20,
        limits,
      };
      expect(readmit(grown)).toMatch(/headroom/);
    } finally {
      child.kill();
      await child.exited;
    }
  });
});
