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

/** The program's share of the address space, beyond what the process has mapped. */
export const allowanceBytes = (limits: KernelLimits) =>
  Math.max(0, limits.memoryMb - ARENA_RESERVE_MB) * MIB;

/**
 * Sets every limit on `pid`, the address space to `mappedBytes` (what it has mapped now) plus the
 * program's allowance; returns the names of the limits refused. With `headroomBytes`, the hard
 * address-space limit is that much higher than the soft one, room for the runner to move the
 * soft one up for a reused sandbox's next program (`moveMemoryLimit`); the program cannot
 * (the seccomp filter refuses setrlimit and a writing prlimit, and reuse needs the filter).
 */
export function applyLimits(
  pid: number,
  limits: KernelLimits,
  mappedBytes: number,
  headroomBytes = 0,
): string[] {
  const { prlimit } = hostLibc();
  const refused: string[] = [];
  const set = (name: string, resource: number, value: number, hard = value) => {
    if (prlimit(pid, resource, value, hard) !== 0) refused.push(name);
  };
  const memory = mappedBytes + allowanceBytes(limits);
  set("core", RLIMIT.CORE, 0);
  set("cpu", RLIMIT.CPU, limits.cpuSeconds);
  set("fsize", RLIMIT.FSIZE, limits.fileSizeBytes);
  set("nofile", RLIMIT.NOFILE, limits.openFiles);
  set("nproc", RLIMIT.NPROC, limits.processes);
  set("as", RLIMIT.AS, memory, memory + headroomBytes);
  return refused;
}

/**
 * Gives a reused sandbox's next program the whole allowance again: the soft address-space limit
 * to what `pid` has mapped now plus the allowance, up to `hardBytes`. False when that does not
 * fit under the hard limit or the kernel refuses.
 */
export function moveMemoryLimit(
  pid: number,
  limits: KernelLimits,
  mappedBytes: number,
  hardBytes: number,
): boolean {
  const soft = mappedBytes + allowanceBytes(limits);
  return soft <= hardBytes && hostLibc().prlimit(pid, RLIMIT.AS, soft, hardBytes) === 0;
}
