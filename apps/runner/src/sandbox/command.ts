/**
 * The command line of one sandbox process: Bun with the strict code-generation flag, macros
 * off and the harness as its entry file, inside bubblewrap when namespaces are on.
 */
import { join } from "node:path";
import { HARNESS_FILE } from "./harness.ts";
import type { ChildConfig, KernelLimits } from "./protocol.ts";

export type SandboxSpec = {
  bunPath: string;
  /** Absolute path of bwrap; null runs Bun directly (no namespaces). */
  bwrapPath: string | null;
  /** The folder of the built harness (see harness.ts), mounted read-only. */
  harnessDir: string;
  lockdown: boolean;
  seccomp: boolean;
  limits: KernelLimits | null;
};

/** Where things are inside the namespaces: no host path is visible to the program. */
const INSIDE = { bun: "/bun", harness: "/runner", work: "/sandbox" } as const;

export const PROGRAM_FILE = "main.mjs";

/**
 * Bun's allocator reserves a 1 GiB arena up front, inside which the address-space limit cannot
 * see allocations; without the reservation every allocation counts against RLIMIT_AS.
 */
const CHILD_ENV = { MIMALLOC_ARENA_RESERVE: "0" } as const;

const BUN_FLAGS = ["--disallow-code-generation-from-strings=strict", "--no-macros"];

export type SandboxCommand = { cmd: string[]; env: Record<string, string>; cwd: string };

export function sandboxCommand(spec: SandboxSpec, workDir: string): SandboxCommand {
  const config = (entry: string): string =>
    JSON.stringify({
      entry,
      limits: spec.limits,
      seccomp: spec.seccomp,
      lockdown: spec.lockdown,
    } satisfies ChildConfig);

  if (!spec.bwrapPath) {
    return {
      cmd: [
        spec.bunPath,
        ...BUN_FLAGS,
        join(spec.harnessDir, HARNESS_FILE),
        config(join(workDir, PROGRAM_FILE)),
      ],
      env: { ...CHILD_ENV },
      cwd: workDir,
    };
  }
  const env = Object.entries(CHILD_ENV).flatMap(([name, value]) => ["--setenv", name, value]);
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
      // The file system is Bun, the C library, the harness and the program, all read-only.
      "--ro-bind",
      spec.bunPath,
      INSIDE.bun,
      "--ro-bind",
      "/lib",
      "/lib",
      "--ro-bind-try",
      "/lib64",
      "/lib64",
      "--ro-bind",
      spec.harnessDir,
      INSIDE.harness,
      "--ro-bind",
      workDir,
      INSIDE.work,
      // Bun reads /proc/self/maps at start-up; this /proc shows the sandbox's own pids only.
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--chdir",
      INSIDE.work,
      "--",
      INSIDE.bun,
      ...BUN_FLAGS,
      `${INSIDE.harness}/${HARNESS_FILE}`,
      config(`${INSIDE.work}/${PROGRAM_FILE}`),
    ],
    env: {},
    cwd: workDir,
  };
}

/** Paths a message could mention, each with what the client is shown instead. */
export function pathReplacements(spec: SandboxSpec, workDir: string): [string, string][] {
  return [
    [join(workDir, PROGRAM_FILE), "main.ts"],
    [`${INSIDE.work}/${PROGRAM_FILE}`, "main.ts"],
    [workDir, "."],
    [spec.harnessDir, "<sandbox>"],
    [INSIDE.harness, "<sandbox>"],
    [spec.bunPath, "bun"],
  ];
}
