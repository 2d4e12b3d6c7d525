/**
 * The runner's work folder (work-folder.ts): its owner is known by a lock it holds, whatever
 * the PID namespaces of the runners sharing the scratch base; a folder that vanishes under a
 * live runner is made again, and runs go on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { get } from "@platform/server/testing";
import type { App } from "../src/app.ts";
import { SANDBOX_FILES_DIR } from "../src/sandbox/harness.ts";
import { startSandbox } from "../src/sandbox/sandbox.ts";
import { defaultLimits, type HostSandboxing, prepareHost } from "../src/sandbox/setup.ts";
import { removeStaleFolders } from "../src/sandbox/work-folder.ts";
import {
  ALL_LAYERS,
  bwrapPath,
  runRequest,
  silentLogger,
  TEST_ROOT,
  testApp,
  testHarness,
} from "./support.ts";
import {
  outsideNamespace,
  privateShm,
  type RunnerProcess,
  startRunner,
} from "./work-folder-processes.ts";

const newBase = () => {
  const base = join(TEST_ROOT, `base-${Bun.randomUUIDv7().slice(-8)}`);
  mkdirSync(base, { recursive: true });
  return base;
};

const host = (base: string) =>
  prepareHost({
    limits: defaultLimits(128),
    allowMissing: new Set(["namespaces", "seccomp", "rlimits"]),
    logger: silentLogger(),
    bwrapPath: null,
    base,
  });

/** Folders of `base` by name, without the random part of the runner's ones. */
const folders = (base: string) => readdirSync(base).toSorted();

describe("folders of runners that died", () => {
  test("a live runner's folder is kept (an earlier runner's too); a dead one's, and an old one without a lock, removed", async () => {
    const base = newBase();
    const live = await host(base);
    // A runner that died: it made its folder (and lock), then was killed.
    const dead = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { prepareHost, defaultLimits } = await import(${JSON.stringify(join(import.meta.dir, "../src/sandbox/setup.ts"))});
         const { createLogger, memorySink } = await import("@platform/server");
         await prepareHost({ limits: defaultLimits(128), allowMissing: new Set(["namespaces", "seccomp", "rlimits"]), bwrapPath: null, base: ${JSON.stringify(base)}, logger: createLogger({ service: "runner", level: "silent", sink: memorySink() }) });
         console.log("made"); await Bun.sleep(60_000);`,
      ],
      { cwd: import.meta.dir, stdout: "pipe" },
    );
    await dead.stdout.getReader().read();
    dead.kill("SIGKILL");
    await dead.exited;
    const old = join(base, "runner-work-old");
    mkdirSync(old);
    utimesSync(old, new Date(0), new Date(0));
    // Runners before the lock named themselves in `owner`: a live one's folder is kept.
    const selfStart = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ")[19];
    const earlier: [string, string][] = [
      ["runner-work-earlier-live", `${process.pid} ${selfStart}`],
      ["runner-work-earlier-dead", `${process.pid} 1`],
    ];
    for (const [name, owner] of earlier) {
      mkdirSync(join(base, name));
      writeFileSync(join(base, name, "owner"), owner);
      utimesSync(join(base, name), new Date(0), new Date(0));
    }
    mkdirSync(join(base, "runner-work-starting"));
    mkdirSync(join(base, "something-else"));
    symlinkSync(TEST_ROOT, join(base, "runner-work-link"));
    try {
      expect(readdirSync(base).filter((name) => name.startsWith("runner-work-"))).toHaveLength(7);
      const removed = removeStaleFolders(base).map((path) => path.slice(base.length + 1));
      expect(removed).toHaveLength(3);
      expect(removed).toContain("runner-work-old");
      expect(removed).toContain("runner-work-earlier-dead");
      expect(folders(base)).toEqual(
        [
          live.workFolder.root.slice(base.length + 1),
          "runner-work-earlier-live",
          "runner-work-link",
          "runner-work-starting",
          "something-else",
        ].toSorted(),
      );
    } finally {
      live.dispose();
    }
  });

  // A new pid namespace without a user namespace needs root (as in CI and containers' builds).
  test.skipIf(process.getuid?.() !== 0)(
    "a sweep from another PID namespace keeps the live runner's folder",
    async () => {
      const base = newBase();
      const live = await host(base);
      try {
        const removed = await outsideNamespace(
          `const { removeStaleFolders } = await import(${JSON.stringify(join(import.meta.dir, "../src/sandbox/work-folder.ts"))});
           console.log(JSON.stringify(removeStaleFolders(${JSON.stringify(base)})));`,
        );
        expect(JSON.parse(removed)).toEqual([]);
        expect(existsSync(live.workFolder.root)).toBe(true);
      } finally {
        live.dispose();
      }
    },
    30_000,
  );
});

describe("making the folder again", () => {
  test("everything removed comes back: the lock (held again), the harness, the runs folder", async () => {
    const base = newBase();
    const live = await host(base);
    try {
      const { root, runsDir, harnessDir } = live.workFolder;
      rmSync(root, { recursive: true, force: true });
      expect(live.workFolder.intact()).toBe(false);
      await live.workFolder.restore();
      expect(live.workFolder.intact()).toBe(true);
      expect(existsSync(runsDir) && existsSync(join(harnessDir, SANDBOX_FILES_DIR))).toBe(true);
      // Held: a sweep (as another runner's start-up does) keeps it.
      expect(removeStaleFolders(base)).toEqual([]);
      rmSync(runsDir, { recursive: true });
      expect(live.workFolder.intact()).toBe(false);
      await live.workFolder.restore();
      expect(live.workFolder.intact()).toBe(true);
    } finally {
      live.dispose();
    }
  });

  test("a path taken meanwhile (a link, a folder others can enter) is refused, never entered", async () => {
    const base = newBase();
    const live = await host(base);
    const elsewhere = join(base, "elsewhere");
    mkdirSync(elsewhere);
    try {
      const { root } = live.workFolder;
      rmSync(root, { recursive: true, force: true });
      symlinkSync(elsewhere, root);
      await expect(live.workFolder.restore()).rejects.toThrow("no longer the runner's own");
      rmSync(root);
      mkdirSync(root, { mode: 0o755 });
      chmodSync(root, 0o755);
      await expect(live.workFolder.restore()).rejects.toThrow("no longer the runner's own");
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(readdirSync(root)).toEqual([]);
    } finally {
      live.dispose();
    }
  });

  test("a sandbox that cannot start (its folder gone) rejects its ready; it never throws", async () => {
    const sandbox = startSandbox(
      {
        bunPath: process.execPath,
        bwrapPath: null,
        harnessDir: await testHarness(),
        libraries: [],
        lockdown: true,
        seccomp: false,
        limits: null,
        reuse: false,
      },
      join(TEST_ROOT, "no-such-folder", "runs"),
    );
    await expect(sandbox.ready).rejects.toThrow("ENOENT");
    expect(sandbox.alive()).toBe(false);
    await sandbox.dispose();
  });
});

describe.skipIf(!bwrapPath)("a work folder removed under a live runner", () => {
  let app: App;
  let prepared: HostSandboxing;
  let close: () => Promise<void>;
  beforeAll(async () => {
    prepared = await prepareHost({
      limits: defaultLimits(128),
      allowMissing: new Set(),
      logger: silentLogger(),
      base: newBase(),
    });
    const made = await testApp(ALL_LAYERS, {
      poolSize: 2,
      harnessDir: prepared.harnessDir,
      workRoot: prepared.workRoot,
      workFolder: prepared.workFolder,
    });
    app = made.app;
    close = () => made.runner.close();
  });
  afterAll(async () => {
    await close();
    prepared.dispose();
  });

  const runOne = async () => {
    const response = await app.handle(runRequest({ code: "console.log(1)" }));
    return { status: response.status, body: (await response.json()) as { output?: string } };
  };

  test("the next run is answered, the folder is made again and readiness says ok", async () => {
    expect(await runOne()).toMatchObject({ status: 200, body: { output: "1\n" } });
    for (let round = 0; round < 2; round++) {
      rmSync(prepared.workFolder.root, { recursive: true, force: true });
      expect(await runOne()).toMatchObject({ status: 200, body: { output: "1\n" } });
      expect(existsSync(join(prepared.workFolder.root, "lock"))).toBe(true);
      expect((await app.handle(get("/health/ready"))).status).toBe(200);
      expect(await runOne()).toMatchObject({ status: 200, body: { output: "1\n" } });
    }
  }, 30_000);

  test("with no run to notice, readiness notices: unready until the folder is back", async () => {
    rmSync(prepared.workFolder.root, { recursive: true, force: true });
    const first = await app.handle(get("/health/ready"));
    expect(first.status).toBe(503);
    expect(await first.text()).toContain("work folder");
    let status = 503;
    for (let tries = 0; tries < 100 && status !== 200; tries++) {
      await Bun.sleep(50);
      status = (await app.handle(get("/health/ready"))).status;
    }
    expect(status).toBe(200);
    expect(await runOne()).toMatchObject({ status: 200, body: { output: "1\n" } });
  }, 30_000);
});

// Real runners, as the process tests start them: the second in a PID namespace of its own,
// both sharing a /dev/shm that is private to this test (a tmpfs in a mount namespace).
describe.skipIf(process.getuid?.() !== 0 || !bwrapPath)("runners in two PID namespaces", () => {
  let shm: Awaited<ReturnType<typeof privateShm>>;
  let first: RunnerProcess;
  let second: RunnerProcess;
  let firstFolder = "";
  beforeAll(async () => {
    shm = await privateShm();
    first = await startRunner(shm, { newPidNamespace: false });
    firstFolder = shm.folders()[0] ?? "";
    second = await startRunner(shm, { newPidNamespace: true });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await shm?.stop();
  });

  test("the second's start-up leaves the first's folder; the first keeps running programs", async () => {
    expect(shm.folders()).toHaveLength(2);
    expect(shm.folders()).toContain(firstFolder);
    for (let i = 0; i < 3; i++) {
      expect(await first.run("console.log(1)")).toEqual({ status: 200, output: "1\n" });
    }
    expect((await fetch(`${first.url}/health/ready`)).status).toBe(200);
  });

  test("the first's folder removed: it is made again, runs answer, the process lives", async () => {
    const before = shm.folders();
    rmSync(join(shm.path, firstFolder), { recursive: true, force: true });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await first.run("console.log(1)"));
    expect(answers).toEqual(Array(3).fill({ status: 200, output: "1\n" }));
    expect(shm.folders()).toEqual(before);
    await Bun.sleep(1_000);
    expect(first.alive()).toBe(true);
    expect((await fetch(`${first.url}/health/ready`)).status).toBe(200);
  }, 30_000);
});
