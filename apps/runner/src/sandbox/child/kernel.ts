/**
 * The child's own kernel restrictions, applied before any untrusted code exists in the process:
 * resource limits, then the seccomp filter. Both go through libc with bun:ffi, so nothing has to
 * be compiled or installed; the filter is synchronised to every thread Bun has already started.
 */
import { ptr } from "bun:ffi";
import { prctl, readSmallFile, setrlimit, syscall } from "./libc.ts";
import { buildFilter, encodeFilter } from "./seccomp-bpf.ts";

export type KernelLimits = {
  /** Address space the program may add to what Bun has mapped at start-up. */
  memoryMb: number;
  cpuSeconds: number;
  openFiles: number;
  fileSizeBytes: number;
  /** Threads count as processes for RLIMIT_NPROC; Bun starts its own. */
  processes: number;
};

const RLIMIT = { CPU: 0, FSIZE: 1, CORE: 4, NPROC: 6, NOFILE: 7, AS: 9 } as const;
const PR_SET_NO_NEW_PRIVS = 38;
const SYS_SECCOMP = 317;
const SECCOMP_SET_MODE_FILTER = 1;
const SECCOMP_FILTER_FLAG_TSYNC = 1;

const PAGE = 4096;

/** Virtual memory Bun has reserved so far: its heaps reserve far more than they use. */
function mappedBytes(): number {
  const [pages = "0"] = readSmallFile("/proc/self/statm").split(" ");
  return Number(pages) * PAGE;
}

/** Sets every limit; returns the names of those the kernel refused. */
export function applyLimits(limits: KernelLimits): string[] {
  const refused: string[] = [];
  const set = (name: string, resource: number, value: number) => {
    const pair = new BigUint64Array([BigInt(value), BigInt(value)]);
    if (setrlimit(resource, ptr(pair)) !== 0) refused.push(name);
  };
  set("core", RLIMIT.CORE, 0);
  set("cpu", RLIMIT.CPU, limits.cpuSeconds);
  set("fsize", RLIMIT.FSIZE, limits.fileSizeBytes);
  set("nofile", RLIMIT.NOFILE, limits.openFiles);
  set("nproc", RLIMIT.NPROC, limits.processes);
  set("as", RLIMIT.AS, mappedBytes() + limits.memoryMb * 1024 * 1024);
  return refused;
}

/** Installs the filter on every thread; throws when the kernel will not have it. */
export function applySeccomp(ownPid: number): void {
  if (process.arch !== "x64") throw new Error(`no seccomp filter for ${process.arch}`);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0) throw new Error("PR_SET_NO_NEW_PRIVS refused");
  const filter = encodeFilter(buildFilter({ ownPid }));
  // struct sock_fprog: u16 length, 6 bytes of padding, then the pointer to the instructions.
  const program = new BigUint64Array(2);
  new DataView(program.buffer).setUint16(0, filter.byteLength / 8, true);
  program[1] = BigInt(ptr(filter));
  const result = syscall(
    SYS_SECCOMP,
    SECCOMP_SET_MODE_FILTER,
    SECCOMP_FILTER_FLAG_TSYNC,
    ptr(program),
  );
  if (Number(result) !== 0) throw new Error(`seccomp refused (${result})`);
}
