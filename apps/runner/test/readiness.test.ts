/**
 * What the runner checks and sets on a sandbox that says it is ready (readiness.ts), without a
 * sandbox: on this test process and on processes it starts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxSpec } from "../src/sandbox/command.ts";
import { admit, pidFromInfo } from "../src/sandbox/readiness.ts";
import { defaultLimits, scratchBase } from "../src/sandbox/setup.ts";
import { TEST_ROOT } from "./support.ts";

const spec: SandboxSpec = {
  bunPath: process.execPath,
  bwrapPath: "/usr/bin/bwrap",
  harnessDir: TEST_ROOT,
  libraries: [],
  lockdown: true,
  seccomp: true,
  limits: null,
  reuse: false,
};
const ready = { t: "ready", seccomp: "off" } as const;

/** A child that only waits, to set limits on; killed (and reaped) after each use. */
function sleeper() {
  const proc = Bun.spawn(["sleep", "30"], { stdout: "ignore", stderr: "ignore" });
  return {
    pid: proc.pid,
    stop: async () => {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

describe("the sandbox's pid, from bubblewrap's --info-fd report", () => {
  const fifoDir = mkdtempSync(join(tmpdir(), "runner-info-"));
  afterAll(() => rmSync(fifoDir, { recursive: true, force: true }));

  test("is read up to the closing brace, without waiting for the end of the pipe", async () => {
    const fifo = join(fifoDir, "info");
    Bun.spawnSync(["mkfifo", fifo]);
    // The writer keeps the pipe open, as a wrapper around bubblewrap (perf, say) would.
    // `exec sleep`: the shell becomes the sleep, so the kill below ends it (a sleep left as the
    // shell's child outlived the test and held the test run's output open for 30 s).
    const writer = Bun.spawn(
      ["sh", "-c", `exec 3>${fifo}; printf '{ "child-pid": 4321 }' >&3; exec sleep 30`],
      { stdout: "ignore", stderr: "ignore" },
    );
    const fd = openSync(fifo, "r");
    try {
      expect(await pidFromInfo(fd)).toBe(4321);
    } finally {
      writer.kill("SIGKILL");
      await writer.exited;
    }
    expect(() => closeSync(fd)).toThrow(); // pidFromInfo closed it
  });

  test("a report without a pid is refused", async () => {
    const fifo = join(fifoDir, "garbage");
    Bun.spawnSync(["mkfifo", fifo]);
    const writer = Bun.spawn(["sh", "-c", `printf '{ "other": 1 }' > ${fifo}`]);
    await expect(pidFromInfo(openSync(fifo, "r"))).rejects.toThrow(/no pid/);
    await writer.exited;
  });
});

describe("admitting a sandbox that says it is ready", () => {
  test("refused when the filter bubblewrap should have installed is not in force", () => {
    // This test process has no seccomp filter.
    expect(admit(spec, ready, process.pid)).toMatch(/seccomp filter not in force/);
  });

  test("without bubblewrap, the child's own word on its filter decides", () => {
    const direct = { ...spec, bwrapPath: null };
    expect(admit(direct, { t: "ready", seccomp: "on" }, process.pid)).toMatchObject({
      pid: process.pid,
    });
    expect(admit(direct, { t: "ready", seccomp: "failed: EPERM" }, process.pid)).toMatch(
      /failed: EPERM/,
    );
  });

  test("limits are set on the process itself, soft and hard", async () => {
    const child = sleeper();
    try {
      const limits = defaultLimits(64);
      expect(admit({ ...spec, seccomp: false, limits }, ready, child.pid)).toMatchObject({
        pid: child.pid,
        limits,
      });
      const table = readFileSync(`/proc/${child.pid}/limits`, "utf8");
      expect(table).toMatch(/Max open files\s+64\s+64/);
      expect(table).toMatch(/Max file size\s+0\s+0/);
      expect(table).toMatch(/Max processes\s+256\s+256/);
    } finally {
      await child.stop();
    }
  });

  test("a process that is gone cannot be admitted", async () => {
    const child = sleeper();
    await child.stop();
    const limits = defaultLimits(64);
    expect(admit({ ...spec, seccomp: false, limits }, ready, child.pid)).toMatch(
      /could not be checked/,
    );
  });
});

describe("where the runner keeps its files", () => {
  test("/dev/shm when it is a writable tmpfs", () => {
    const shmIsTmpfs =
      existsSync("/dev/shm") && readFileSync("/proc/mounts", "utf8").includes(" /dev/shm tmpfs ");
    expect(scratchBase()).toBe(shmIsTmpfs ? "/dev/shm" : tmpdir());
  });

  test("the temporary directory otherwise", () => {
    expect(scratchBase(join(TEST_ROOT, "no-such-dir"))).toBe(tmpdir());
    // A directory that is not a tmpfs, when the temporary directory is not one either.
    expect(scratchBase("/proc")).toBe(tmpdir());
  });
});
