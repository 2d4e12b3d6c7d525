/**
 * Start-up: detect the kernel layers and log them. With one missing that is not explicitly
 * allowed (RUNNER_ALLOW_MISSING_LAYERS) the runner still starts, so the rest of the stack keeps
 * working, but runs no program: every run is answered 503 SANDBOX_UNAVAILABLE naming the missing
 * layer and the fix, and readiness says the same. Otherwise it runs with every layer the host
 * provides, and reports them on /health/ready.
 */
import { accessSync, constants, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, type Logger, splitList } from "@platform/server";
import {
  detectKernelLayers,
  KERNEL_LAYERS,
  type KernelLayer,
  type KernelLayers,
} from "./layers.ts";
import type { KernelLimits } from "./limits.ts";
import { bunLibraries, type LibraryBind } from "./visible-files.ts";
import { createWorkFolder, removeStaleFolders, type WorkFolder } from "./work-folder.ts";

export function defaultLimits(memoryMb: number): KernelLimits {
  return {
    memoryMb,
    // The wall-clock timer (at most 5 s) ends runs first; this is the backstop.
    cpuSeconds: 10,
    openFiles: 64,
    fileSizeBytes: 0,
    processes: 256,
  };
}

/** "seccomp, rlimits" or "all" → the layers named; an unknown name is a configuration error. */
export function parseAllowedMissing(spec: string): Set<KernelLayer> {
  const names = splitList(spec);
  if (names.includes("all")) return new Set(KERNEL_LAYERS);
  const allowed = new Set<KernelLayer>();
  for (const name of names) {
    const layer = KERNEL_LAYERS.find((known) => known === name);
    if (!layer) {
      throw new ConfigError(
        `RUNNER_ALLOW_MISSING_LAYERS: "${name}" is not one of ${KERNEL_LAYERS.join(", ")}, all`,
      );
    }
    allowed.add(layer);
  }
  return allowed;
}

const TMPFS_MAGIC = 0x01021994;

/**
 * Where the runner keeps its files (harness, and a folder per sandbox for its program):
 * `shm` (/dev/shm) when it is a writable tmpfs, else the temporary directory. Every run creates,
 * writes and removes files there on the request path; on a disk file system that is journal
 * work (and discards, where the disk is mounted with them): about 0.7 ms of the event loop per
 * run, measured.
 */
export function scratchBase(shm = "/dev/shm"): string {
  try {
    accessSync(shm, constants.W_OK);
    if (statfsSync(shm).type === TMPFS_MAGIC) return shm;
  } catch {
    // Not there, or not writable: the temporary directory it is.
  }
  return tmpdir();
}

export type HostSandboxing = {
  bunPath: string;
  harnessDir: string;
  libraries: readonly LibraryBind[];
  bwrapPath: string | null;
  kernel: KernelLayers;
  /**
   * Why no program can run here (a layer missing and not allowed), or null. The runner then
   * still starts, answering every run 503 SANDBOX_UNAVAILABLE with this, and is not ready.
   */
  unavailable: string | null;
  /** Where the pool puts the sandboxes' folders. */
  workRoot: string;
  /** The runner's folder (harness, probe, runs), made again if it vanishes (work-folder.ts). */
  workFolder: WorkFolder;
  /** Removes the runner's folder. */
  dispose(): void;
};

export async function prepareHost(opts: {
  limits: KernelLimits;
  allowMissing: Set<KernelLayer>;
  logger: Logger;
  /** Where bubblewrap is; found on PATH when not given (tests pass null to go without). */
  bwrapPath?: string | null;
  /** Where the runner's folder goes: scratchBase() when not given (tests use their own). */
  base?: string;
}): Promise<HostSandboxing> {
  const bunPath = process.execPath;
  const bwrapPath = opts.bwrapPath === undefined ? Bun.which("bwrap") : opts.bwrapPath;
  const base = opts.base ?? scratchBase();
  const stale = removeStaleFolders(base);
  if (stale.length > 0) opts.logger.warn("removed folders of runners gone", { folders: stale });
  // Once, here: every sandbox under bubblewrap binds them (command.ts).
  const libraries = bwrapPath ? bunLibraries(bunPath) : [];
  const workFolder = await createWorkFolder(base);
  const { root, harnessDir } = workFolder;
  const kernel = await detectKernelLayers({
    bunPath,
    bwrapPath,
    harnessDir,
    libraries,
    limits: opts.limits,
    workRoot: join(root, "probe"),
  });
  opts.logger.info("kernel layers", { ...kernel });
  const missing = KERNEL_LAYERS.filter((layer) => !kernel[layer].on);
  const refused = missing.filter((layer) => !opts.allowMissing.has(layer));
  const unavailable = refused.length > 0 ? unavailableReason(refused, kernel) : null;
  if (unavailable) opts.logger.error("the runner cannot run programs", { reason: unavailable });
  else if (missing.length > 0) opts.logger.warn("running without kernel layers", { missing });
  return {
    bunPath,
    bwrapPath,
    harnessDir,
    libraries,
    kernel,
    unavailable,
    workRoot: workFolder.runsDir,
    workFolder,
    dispose: workFolder.dispose,
  };
}

/** What is missing and how to fix it, for the logs, readiness and every refused run. */
function unavailableReason(refused: KernelLayer[], kernel: KernelLayers): string {
  const layers = refused.map((layer) => `${layer} (${kernel[layer].detail})`).join("; ");
  const fix = kernel.namespaces.detail.includes("not installed")
    ? "install bubblewrap (apt-get install bubblewrap, or run `bun scripts/setup.ts`)"
    : "fix the host (docs/security-runner.md)";
  return `the host lacks sandbox layers: ${layers}. To fix: ${fix}, or set RUNNER_ALLOW_MISSING_LAYERS=${refused.join(",")} to run without them`;
}
