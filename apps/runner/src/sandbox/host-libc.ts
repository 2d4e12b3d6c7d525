/**
 * The runner's own calls into the C library (bun:ffi), bound once per runner process on first
 * use: prlimit(2) for the resource-limit layer, pidfds to signal a sandbox's real process without
 * racing pid reuse, waitpid(2) to reap children the runner adopted (as a container's pid 1), and
 * sched_setscheduler(2) to demote long runs, and flock(2) for the work folder's lock
 * (work-folder.ts).
 * No JavaScript API offers them.
 */
import type * as Ffi from "bun:ffi";

const SYS_pidfd_send_signal = 424;
const SYS_pidfd_open = 434;
const WNOHANG = 1;
const SCHED_IDLE = 5;

type HostLibc = {
  /** Sets a limit of `pid`: soft and hard to `value`, or the hard one to `hard`. */
  prlimit(pid: number, resource: number, value: number, hard?: number): number;
  pidfdOpen(pid: number): number;
  pidfdSignal(pidfd: number, signal: number): number;
  /** The pid reaped, 0 when the child has not exited, -1 when it is not a child. */
  reap(pid: number): number;
  /** Puts one thread in SCHED_IDLE: it runs only when no ordinary thread wants the core. */
  idle(tid: number): number;
  /** flock(2) on a descriptor: 0 done, -1 refused (with LOCK_NB: another holds the lock). */
  flock(fd: number, operation: number): number;
};

let libc: HostLibc | undefined;

export function hostLibc(): HostLibc {
  libc ??= load();
  return libc;
}

function load(): HostLibc {
  // Required when first needed rather than imported: tests and tools that never call these
  // do not load bun:ffi.
  const { dlopen, FFIType, ptr }: typeof Ffi = import.meta.require("bun:ffi");
  const { i32, i64, ptr: pointer } = FFIType;
  const { symbols } = dlopen("libc.so.6", {
    prlimit: { args: [i32, i32, pointer, pointer], returns: i32 },
    syscall: { args: [i64, i64, i64, i64, i64], returns: i64 },
    waitpid: { args: [i32, pointer, i32], returns: i32 },
    sched_setscheduler: { args: [i32, i32, pointer], returns: i32 },
    flock: { args: [i32, i32], returns: i32 },
  });
  // struct sched_param: the static priority, 0 for SCHED_IDLE.
  const noPriority = new Int32Array(1);
  return {
    prlimit(pid, resource, value, hard = value) {
      const pair = new BigUint64Array([BigInt(value), BigInt(hard)]);
      return symbols.prlimit(pid, resource, ptr(pair), null);
    },
    pidfdOpen: (pid) => Number(symbols.syscall(SYS_pidfd_open, pid, 0, 0, 0)),
    pidfdSignal: (pidfd, signal) =>
      Number(symbols.syscall(SYS_pidfd_send_signal, pidfd, signal, 0, 0)),
    reap: (pid) => symbols.waitpid(pid, null, WNOHANG),
    idle: (tid) => symbols.sched_setscheduler(tid, SCHED_IDLE, ptr(noPriority)),
    flock: (fd, operation) => symbols.flock(fd, operation),
  };
}
