/**
 * The resource-limit layer, applied by the runner to a sandbox's Bun process once it has started
 * and before it is given a program: prlimit(2) on its pid. The child needs no native code for
 * it, and the address-space limit starts from what Bun has really mapped by then.
 */
import { hostLibc } from "./host-libc.ts";

export type KernelLimits = {
  /** Memory the program may allocate beyond Bun's own start-up footprint. */
  memoryMb: number;
  cpuSeconds: number;
  openFiles: number;
  fileSizeBytes: number;
  /** Threads count as processes for RLIMIT_NPROC; Bun starts its own. */
  processes: number;
};

/**
 * The arena Bun's allocator reserves at start (MIMALLOC_ARENA_RESERVE, see command.ts), in MiB.
 * Allocations inside it do not grow the address space, so it is taken off the program's share.
 */
export const ARENA_RESERVE_MB = 32;

const RLIMIT = { CPU: 0, FSIZE: 1, CORE: 4, NPROC: 6, NOFILE: 7, AS: 9 } as const;
const MIB = 1024 * 1024;

/**
 * Sets every limit on `pid`, the address space to `mappedBytes` (what it has mapped now) plus the
 * program's allowance; returns the names of the limits refused.
 */
export function applyLimits(pid: number, limits: KernelLimits, mappedBytes: number): string[] {
  const { prlimit } = hostLibc();
  const refused: string[] = [];
  const set = (name: string, resource: number, value: number) => {
    if (prlimit(pid, resource, value) !== 0) refused.push(name);
  };
  const allowance = Math.max(0, limits.memoryMb - ARENA_RESERVE_MB) * MIB;
  set("core", RLIMIT.CORE, 0);
  set("cpu", RLIMIT.CPU, limits.cpuSeconds);
  set("fsize", RLIMIT.FSIZE, limits.fileSizeBytes);
  set("nofile", RLIMIT.NOFILE, limits.openFiles);
  set("nproc", RLIMIT.NPROC, limits.processes);
  set("as", RLIMIT.AS, mappedBytes + allowance);
  return refused;
}
