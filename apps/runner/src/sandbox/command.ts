/**
 * The command line of one sandbox process: Bun with the strict code-generation flag, macros
 * off and the harness as its entry file, inside bubblewrap when namespaces are on.
 */
import { join } from "node:path";
import { HARNESS_FILE, SANDBOX_FILES_DIR, SECCOMP_FILE, SUPERVISOR_FILE } from "./harness.ts";
import { ARENA_RESERVE_MB, type KernelLimits } from "./limits.ts";
import { type ChildConfig, KERNEL_FILE } from "./protocol.ts";
import { type LibraryBind, libraryBindArgs } from "./visible-files.ts";

export type SandboxSpec = {
  bunPath: string;
  /** Absolute path of bwrap; null runs Bun directly (no namespaces). */
  bwrapPath: string | null;
  /**
   * The folder of the built harness (see harness.ts): its SANDBOX_FILES_DIR is mounted as
   * INSIDE.harness.
   */
  harnessDir: string;
  /** The shared libraries Bun links, found at start-up (visible-files.ts), bound read-only. */
  libraries: readonly LibraryBind[];
  lockdown: boolean;
  seccomp: boolean;
  /** Applied by the parent once the sandbox is ready (limits.ts). */
  limits: KernelLimits | null;
  /**
   * A reusable sandbox: child/supervisor.ts is the process and runs the harness in a worker for
   * each program. Else the harness is the process, for one run.
   */
  reuse: boolean;
};

/** Where things are inside the namespaces: no host path is visible to the program. */
export const INSIDE = { bun: "/bun", harness: "/runner", work: "/sandbox" } as const;

export const PROGRAM_FILE = "main.mjs";

/**
 * The sandbox's environment, nothing else. Bun's allocator reserves a 1 GiB arena up front,
 * inside which the address-space limit cannot see allocations: the smallest reservation (one
 * 32 MiB segment; none at all costs every sandbox half a millisecond of CPU in extra mappings) is
 * taken off the program's allowance. JavaScriptCore's "warm-up" thread, which touches the pages
 * of heap blocks ahead of a heap that is growing, is off: a sandbox's heaps are small and short
 * lived, and the blocks it warmed were mostly never used (interleaved A/B of reusable sandboxes'
 * workers, 300 each, four times: 5.3–5.9 against 6.5–6.8 ms of CPU a run; runner.md).
 */
const CHILD_ENV = {
  MIMALLOC_ARENA_RESERVE: `${ARENA_RESERVE_MB}MiB`,
  BUN_JSC_useWarmUpMarkedBlocks: "false",
} as const;

const BUN_FLAGS = ["--disallow-code-generation-from-strings=strict", "--no-macros"];

/** Descriptors bubblewrap is handed beyond the standard three (see `stdio` in sandbox.ts). */
export const INFO_FD = 3;
export const SECCOMP_FD = 4;

export type SandboxCommand = {
  cmd: string[];
  env: Record<string, string>;
  cwd: string;
  /** Under bubblewrap: it reports the sandbox's pid (JSON) on INFO_FD. */
  reportsPid: boolean;
  /** The compiled filter bubblewrap reads from SECCOMP_FD, if it installs one. */
  seccompFile: string | null;
};

export function sandboxCommand(spec: SandboxSpec, workDir: string): SandboxCommand {
  const config = (entry: string): string =>
    JSON.stringify({
      entry,
      // Without bubblewrap, the child installs its filter itself.
      seccomp: spec.seccomp && !spec.bwrapPath ? join(spec.harnessDir, KERNEL_FILE) : null,
      lockdown: spec.lockdown,
      reuse: spec.reuse,
    } satisfies ChildConfig);

  // What the process runs: the harness, or, in a reusable sandbox, the supervisor that runs the
  // harness in a worker for each program.
  const entry = spec.reuse ? SUPERVISOR_FILE : HARNESS_FILE;
  if (!spec.bwrapPath) {
    return {
      cmd: [
        spec.bunPath,
        ...BUN_FLAGS,
        join(spec.harnessDir, SANDBOX_FILES_DIR, entry),
        config(join(workDir, PROGRAM_FILE)),
      ],
      env: { ...CHILD_ENV },
      cwd: workDir,
      reportsPid: false,
      seccompFile: null,
    };
  }
  const env = Object.entries(CHILD_ENV).flatMap(([name, value]) => ["--setenv", name, value]);
  // bubblewrap installs the filter (and sets no_new_privs) as its last step before it starts
  // Bun, so Bun's own start-up already runs under it and the child needs no native code.
  const seccomp = spec.seccomp ? ["--seccomp", String(SECCOMP_FD)] : [];
  return {
    cmd: [
      spec.bwrapPath,
      // A user namespace (nobody inside), and fresh pid, network, ipc, uts and cgroup ones:
      // only a loopback interface that is down, and no other process to see or signal.
      "--unshare-user",
      "--unshare-pid",
      "--unshare-net",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
      // Bun itself is pid 1: bubblewrap's reaper would be one more process per sandbox, with
      // nothing to reap (the filter refuses new processes).
      "--as-pid-1",
      "--uid",
      "65534",
      "--gid",
      "65534",
      "--hostname",
      "sandbox",
      "--die-with-parent",
      "--new-session",
      "--clearenv",
      ...env,
      // The file system is Bun, the libraries it links, the harness's folder (one mount: each
      // costs every sandbox) and the program, all read-only: docs/security-runner.md lists every
      // path, a test checks the list.
      "--ro-bind",
      spec.bunPath,
      INSIDE.bun,
      ...libraryBindArgs(spec.libraries),
      "--ro-bind",
      join(spec.harnessDir, SANDBOX_FILES_DIR),
      INSIDE.harness,
      "--ro-bind",
      workDir,
      INSIDE.work,
      // Bun aborts at start-up without /proc (it reads /proc/self/maps); this one shows the
      // sandbox's own pids only. No /dev: Bun needs none of it, and mounting it costs every
      // sandbox half a millisecond.
      "--proc",
      "/proc",
      // bubblewrap's own root (a tmpfs) too: no file can be created anywhere.
      "--remount-ro",
      "/",
      "--chdir",
      INSIDE.work,
      "--info-fd",
      String(INFO_FD),
      ...seccomp,
      "--",
      INSIDE.bun,
      ...BUN_FLAGS,
      `${INSIDE.harness}/${entry}`,
      config(`${INSIDE.work}/${PROGRAM_FILE}`),
    ],
    env: {},
    cwd: workDir,
    reportsPid: true,
    seccompFile: spec.seccomp ? join(spec.harnessDir, SECCOMP_FILE) : null,
  };
}

/** Paths a message could mention, each with what the client is shown instead. */
export function pathReplacements(spec: SandboxSpec, workDir: string): [string, string][] {
  return [
    [join(workDir, PROGRAM_FILE), "main.ts"],
    [`${INSIDE.work}/${PROGRAM_FILE}`, "main.ts"],
    [workDir, "."],
    [join(spec.harnessDir, SANDBOX_FILES_DIR), "<sandbox>"],
    [spec.harnessDir, "<sandbox>"],
    [INSIDE.harness, "<sandbox>"],
    [spec.bunPath, "bun"],
  ];
}
