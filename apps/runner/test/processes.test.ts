/**
 * No process and no slot is left behind, whatever a program does: one that clears its
 * parent-death signal or closes its streams is killed and answered within its time limit plus a
 * second; the runner reaps what is orphaned to it as a container's pid 1. Folders of runners
 * that died: work-folder.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, waitForHttp } from "@platform/server/testing";
import { reapAdopted } from "../src/sandbox/processes.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { bwrapPath, NO_LAYERS, settleProcesses, testRunner } from "./support.ts";

const SLEEP_FOREVER = "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);";

describe.skipIf(!bwrapPath)("a program cannot outlive its time limit or hold its slot", () => {
  let runner: SandboxRunner;
  beforeAll(async () => {
    // Static check, lockdown and seccomp off: the program may call prctl and close descriptors,
    // and only the runner's own kill stands between it and a leaked process.
    runner = await testRunner({ ...NO_LAYERS, namespaces: true, rlimits: true }, { poolSize: 1 });
  });
  afterAll(() => runner.close());

  const cases: [string, string][] = [
    [
      "clears its parent-death signal, then sleeps",
      `import { dlopen, FFIType } from "bun:ffi";
       const { symbols } = dlopen("libc.so.6", { prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 } });
       console.log("cleared", symbols.prctl(1 /* PR_SET_PDEATHSIG */, 0, 0, 0, 0));
       ${SLEEP_FOREVER}`,
    ],
    [
      "closes its output streams, then spins",
      `import { closeSync } from "node:fs"; closeSync(1); closeSync(2); for (;;) {}`,
    ],
    [
      "ignores every catchable signal",
      `for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(s, () => {}); ${SLEEP_FOREVER}`,
    ],
  ];
  for (const [name, code] of cases) {
    test(`${name}: answered within timeout + 1 s, slot freed, nothing left`, async () => {
      expect(bwrapPath).not.toBeNull();
      const started = performance.now();
      const result = await runner.run(code, 500);
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(result.timedOut).toBe(true);
      expect(runner.stats().running).toBe(0);
      // A warm sandbox under bubblewrap is two processes; nothing else of this run remains.
      expect((await settleProcesses(2)).length).toBeLessThanOrEqual(2);
    });
  }
});

describe("orphans", () => {
  test("adopted children that exited are reaped (as pid 1 or a subreaper)", async () => {
    const { dlopen, FFIType } = await import("bun:ffi");
    const { symbols } = dlopen("libc.so.6", {
      prctl: { args: [FFIType.i32, FFIType.u64], returns: FFIType.i32 },
    });
    const PR_SET_CHILD_SUBREAPER = 36;
    expect(symbols.prctl(PR_SET_CHILD_SUBREAPER, 1)).toBe(0);
    try {
      // The shell exits at once; its background child is orphaned to this process, then exits.
      const shell = Bun.spawn(["sh", "-c", "sleep 0.05 & exit 0"]);
      await shell.exited;
      await Bun.sleep(300);
      expect(reapAdopted()).toBe(1);
      expect(reapAdopted()).toBe(0);
    } finally {
      symbols.prctl(PR_SET_CHILD_SUBREAPER, 0);
    }
  });

  // A new pid namespace without a user namespace needs root (as in CI and containers' builds).
  test.skipIf(process.getuid?.() !== 0 || !bwrapPath)(
    "the runner as pid 1 of its own pid namespace leaves no zombie",
    async () => {
      const port = await freePort();
      const root = join(import.meta.dir, "../../..");
      const outer = Bun.spawn(
        [
          "unshare",
          "--pid",
          "--fork",
          "--kill-child",
          "--mount-proc",
          process.execPath,
          "apps/runner/src/index.ts",
        ],
        {
          cwd: root,
          env: { ...process.env, RUNNER_PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
          stdout: "ignore",
          stderr: "inherit",
        },
      );
      let runnerPid = 0;
      try {
        const url = `http://127.0.0.1:${port}`;
        await waitForHttp(`${url}/health/ready`, 20_000);
        runnerPid = childrenOf(outer.pid)[0] ?? 0;
        expect(readFileSync(`/proc/${runnerPid}/status`, "utf8")).toMatch(/^NSpid:\s+\d+\s+1$/m);
        for (const [code, timeout] of [
          ["console.log(1)", 1_000],
          ["for (;;) {}", 300],
          [SLEEP_FOREVER, 300],
          ["throw new Error('x')", 1_000],
        ] as const) {
          const response = await fetch(`${url}/api/run`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ code, timeout }),
          });
          expect(response.status).toBe(200);
        }
        await Bun.sleep(1_500);
        const zombies = childrenOf(runnerPid).filter((pid) => stateOf(pid) === "Z");
        expect(zombies).toEqual([]);
      } finally {
        // unshare does not pass SIGTERM on: the runner is stopped itself, unshare then exits.
        if (runnerPid > 0) process.kill(runnerPid, "SIGTERM");
        else outer.kill("SIGKILL");
        await outer.exited;
      }
    },
    30_000,
  );
});

describe.skipIf(!bwrapPath)("a runner killed with kill -9", () => {
  // The runner is the one app with children (checkers, sandboxes): none may outlive it, nor
  // hold its port (the listening socket is close-on-exec), so a restart on the same port, at
  // once, comes up (docs/reliability.md).
  test("leaves no child running and is restarted on its port at once", async () => {
    const port = await freePort();
    const start = () =>
      Bun.spawn([process.execPath, "apps/runner/src/index.ts"], {
        cwd: join(import.meta.dir, "../../.."),
        env: {
          ...process.env,
          RUNNER_PORT: String(port),
          HOST: "127.0.0.1",
          LOG_LEVEL: "error",
          RUNNER_POOL_SIZE: "2",
          RUNNER_CHECKERS: "2",
        },
        stdout: "ignore",
        stderr: "inherit",
      });
    const url = `http://127.0.0.1:${port}`;
    const first = start();
    let second: ReturnType<typeof start> | undefined;
    try {
      await waitForHttp(`${url}/health/ready`, 30_000);
      const children = childrenOf(first.pid);
      expect(children.length).toBeGreaterThanOrEqual(3);
      first.kill("SIGKILL");
      await first.exited;
      let running = children;
      for (let i = 0; i < 60 && running.length > 0; i++) {
        await Bun.sleep(50);
        running = running.filter((pid) => !["Z", "gone"].includes(stateOf(pid)));
      }
      expect(running).toEqual([]);
      second = start();
      await waitForHttp(`${url}/health/ready`, 30_000);
      const ran = await fetch(`${url}/api/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code: "console.log(1)" }),
      });
      expect(await ran.json()).toMatchObject({ output: "1\n" });
      expect(second.exitCode).toBeNull();
    } finally {
      first.kill("SIGKILL");
      second?.kill("SIGTERM");
      await Promise.all([first.exited, second?.exited]);
    }
  }, 60_000);
});

function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8")
      .split(" ")
      .filter(Boolean)
      .map(Number),
  );
}

function stateOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return "gone";
  }
}
