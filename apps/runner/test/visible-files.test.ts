/**
 * What a sandbox under bubblewrap can see: the whole file system, walked from / by a program
 * inside a real sandbox, against the list the runner's own discovery gives and against the list
 * in docs/security-runner.md, so that neither the runner nor the doc can drift.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { INSIDE, PROGRAM_FILE } from "../src/sandbox/command.ts";
import {
  HARNESS_BUNDLE,
  HARNESS_BYTECODE_FILE,
  HARNESS_FILE,
  SUPERVISOR_FILE,
} from "../src/sandbox/harness.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { bunLibraries, parseLdd } from "../src/sandbox/visible-files.ts";
import {
  ALL_LAYERS,
  bwrapPath,
  NO_LAYERS,
  reusableSandboxProcesses,
  TEST_ROOT,
  testHarness,
  testLibraries,
  testRunner,
} from "./support.ts";

const PROC_SUPER_MAGIC = 0x9fa0;
const ABSENT = ["/usr", "/etc", "/bin", "/home", "/root", "/tmp", "/dev", "/var", "/sys"];

type Paths = { fixed: Set<string>; libraries: Set<string> };

/** Every path the runner makes visible: its mounts, and the directories holding them. */
function expectedPaths(): Paths {
  const fixed = new Set([
    "/",
    INSIDE.bun,
    "/proc",
    INSIDE.harness,
    `${INSIDE.harness}/${HARNESS_FILE}`,
    `${INSIDE.harness}/${HARNESS_BUNDLE}`,
    `${INSIDE.harness}/${HARNESS_BYTECODE_FILE}`,
    `${INSIDE.harness}/${SUPERVISOR_FILE}`,
    INSIDE.work,
    `${INSIDE.work}/${PROGRAM_FILE}`,
  ]);
  const libraries = new Set<string>();
  for (const { target } of testLibraries) {
    for (let path = target; path !== "/"; path = dirname(path)) libraries.add(path);
  }
  return { fixed, libraries };
}

/** The doc's list: the table between the markers, one path per row, host-dependent ones marked. */
function documentedPaths(): Paths {
  const doc = readFileSync(join(import.meta.dir, "../../../docs/security-runner.md"), "utf8");
  const table = /<!-- sandbox-files -->([\s\S]*?)<!-- \/sandbox-files -->/.exec(doc)?.[1];
  if (!table) throw new Error("docs/security-runner.md has no sandbox-files table");
  const fixed = new Set<string>();
  const libraries = new Set<string>();
  for (const row of table.split("\n")) {
    const path = /^\|\s*`([^`]+)`/.exec(row)?.[1];
    if (!path) continue;
    if (row.includes("found at start-up")) libraries.add(path);
    else fixed.add(path);
  }
  return { fixed, libraries };
}

/** Every path under `root` (a sandbox's root seen from outside), not into /proc, as inside. */
function walkFromOutside(root: string): string[] {
  const paths = ["/"];
  const walk = (inside: string) => {
    for (const entry of readdirSync(join(root, inside), { withFileTypes: true })) {
      const path = `${inside === "/" ? "" : inside}/${entry.name}`;
      paths.push(path);
      if (entry.isDirectory() && path !== "/proc") walk(path);
    }
  };
  walk("/");
  return paths;
}

/**
 * Walks / (not into /proc), tries to read every file, and checks /proc and the host paths. The
 * report is base64: the runner rewrites sandbox paths in output it shows (pathReplacements).
 */
const walker = (hostPaths: string[]) => `
const fs = process.getBuiltinModule("node:fs");
const paths = ["/"];
const unreadable = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const path = (dir === "/" ? "" : dir) + "/" + entry.name;
    paths.push(path);
    if (entry.isDirectory()) { if (path !== "/proc") walk(path); continue; }
    try { fs.closeSync(fs.openSync(path, "r")); } catch { unreadable.push(path); }
  }
};
walk("/");
const procType = fs.statfsSync("/proc").type;
const pids = fs.readdirSync("/proc").filter((name) => /^\\d+$/.test(name));
const hostVisible = ${JSON.stringify(hostPaths)}.filter((path) => fs.existsSync(path));
console.log(btoa(JSON.stringify({ paths, unreadable, procType, pids, hostVisible })));
`;

describe.skipIf(!bwrapPath)("the sandbox's file system (bubblewrap)", () => {
  let runner: SandboxRunner | undefined;
  beforeAll(async () => {
    runner = await testRunner({ ...NO_LAYERS, namespaces: true });
  });
  afterAll(() => runner?.close());

  test("is exactly the runner's list and the doc's, and Bun starts without ld.so.cache", async () => {
    if (!runner) throw new Error("runner not started");
    const harness = await testHarness();
    const hostPaths = [...ABSENT, harness, TEST_ROOT, "/lib/x86_64-linux-gnu/libz.so.1"];
    const result = await runner.run(walker(hostPaths), 5_000);
    expect(result.error).toBeNull();
    const report = JSON.parse(atob(result.output.trim())) as {
      paths: string[];
      unreadable: string[];
      procType: number;
      pids: string[];
      hostVisible: string[];
    };
    const expected = expectedPaths();
    expect(report.paths.toSorted()).toEqual([...expected.fixed, ...expected.libraries].toSorted());
    expect(report.unreadable).toEqual([]);
    // A proc of its own pid namespace: Bun is pid 1 and alone.
    expect(report.procType).toBe(PROC_SUPER_MAGIC);
    expect(report.pids).toEqual(["1"]);
    expect(report.hostVisible).toEqual([]);
    // Bun started, with no /etc at all: the loader found its libraries by its default paths.
    expect(report.paths).not.toContain("/etc");
  });

  test("a reusable sandbox sees the same (walked from outside)", async () => {
    const reusable = await testRunner(ALL_LAYERS, { poolSize: 1 });
    try {
      // Two clean runs in a row get the client a reusable sandbox (kept.ts).
      for (let i = 0; i < 2; i++) await reusable.run("console.log(1)", 2_000, "walker");
      let supervisor: { pid: number } | undefined;
      for (let i = 0; i < 100 && !supervisor; i++) {
        await Bun.sleep(20);
        [supervisor] = reusableSandboxProcesses();
      }
      if (!supervisor) throw new Error("no reusable sandbox started");
      const expected = expectedPaths();
      // Its folder holds the program once it has run one; before that, it is empty.
      const seen = walkFromOutside(`/proc/${supervisor.pid}/root`);
      const wanted = [...expected.fixed, ...expected.libraries];
      expect(seen.toSorted()).toEqual(
        wanted
          .filter((path) => seen.includes(path) || path !== `${INSIDE.work}/${PROGRAM_FILE}`)
          .toSorted(),
      );
    } finally {
      await reusable.close();
    }
  });

  test("docs/security-runner.md lists the same paths", () => {
    const expected = expectedPaths();
    const documented = documentedPaths();
    expect([...documented.fixed].toSorted()).toEqual([...expected.fixed].toSorted());
    // The doc gives the libraries of Debian 12 x86_64 with Bun 1.4.4; another host finds others.
    const documentedHost = testLibraries.some(
      ({ target }) => target === "/lib64/ld-linux-x86-64.so.2",
    );
    if (documentedHost) {
      expect([...documented.libraries].toSorted()).toEqual([...expected.libraries].toSorted());
    }
  });
});

describe("finding Bun's libraries", () => {
  test("ldd's report: libraries, the ELF interpreter, not the vDSO", () => {
    const report = `\tlinux-vdso.so.1 (0x00007ffd)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f01)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f02)
\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x00007f03)
`;
    expect(parseLdd(report)).toEqual([
      "/lib/x86_64-linux-gnu/libc.so.6",
      "/lib64/ld-linux-x86-64.so.2",
      "/lib/x86_64-linux-gnu/libm.so.6",
    ]);
  });

  test("a missing library, or no ldd, stops the start with a message saying so", () => {
    expect(() => parseLdd("\tlibicu.so.72 => not found\n")).toThrow(
      "a library Bun needs is not installed: libicu.so.72 => not found",
    );
    expect(() => bunLibraries(process.execPath, "/nonexistent/ldd")).toThrow("install libc-bin");
  });

  test("each library is bound from its real file, at the path the loader opens", () => {
    expect(testLibraries.length).toBeGreaterThan(0);
    for (const { source, target } of testLibraries) {
      expect(target.startsWith("/")).toBe(true);
      expect(readFileSync(source).subarray(0, 4)).toEqual(Buffer.from("\x7fELF", "latin1"));
    }
  });
});
