/**
 * Start-up: detect the kernel layers, log them, and refuse to start with one missing unless it
 * is explicitly allowed (RUNNER_ALLOW_MISSING_LAYERS). The runner then runs with every layer
 * the host provides, and reports them on /health/ready.
 */
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, type Logger, splitList } from "@platform/server";
import { buildHarness } from "./harness.ts";
import {
  detectKernelLayers,
  KERNEL_LAYERS,
  type KernelLayer,
  type KernelLayers,
} from "./layers.ts";
import type { KernelLimits } from "./limits.ts";
import { bunLibraries, type LibraryBind } from "./visible-files.ts";

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
  /** Where the pool puts the sandboxes' folders. */
  workRoot: string;
  /** Removes the runner's temporary folder (harness, probe, runs). */
  dispose(): void;
};

export async function prepareHost(opts: {
  limits: KernelLimits;
  allowMissing: Set<KernelLayer>;
  logger: Logger;
  /** Where bubblewrap is; found on PATH when not given (tests pass null to go without). */
  bwrapPath?: string | null;
}): Promise<HostSandboxing> {
  const bunPath = process.execPath;
  const bwrapPath = opts.bwrapPath === undefined ? Bun.which("bwrap") : opts.bwrapPath;
  // Once, here: every sandbox under bubblewrap binds them (command.ts).
  const libraries = bwrapPath ? bunLibraries(bunPath) : [];
  // Created atomically, private (0700), under a name no other user can have chosen first.
  const root = mkdtempSync(join(scratchBase(), "runner-"));
  const dispose = () => rmSync(root, { recursive: true, force: true });
  const harnessDir = await buildHarness(join(root, "harness"));
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
  if (refused.length > 0) {
    dispose();
    throw new ConfigError(
      `The host lacks sandbox layers: ${refused.map((layer) => `${layer} (${kernel[layer].detail})`).join("; ")}. ` +
        "Fix the host (see docs/security.md) or set RUNNER_ALLOW_MISSING_LAYERS to run without them.",
    );
  }
  if (missing.length > 0) opts.logger.warn("running without kernel layers", { missing });
  return {
    bunPath,
    bwrapPath,
    harnessDir,
    libraries,
    kernel,
    workRoot: join(root, "runs"),
    dispose,
  };
}
