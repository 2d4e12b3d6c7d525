/**
 * What the runner does when a sandbox says it is ready, before the pool may hand it a program:
 * find its Bun process, check that the seccomp filter is in force there, and set its resource
 * limits. Any failure discards the sandbox (fail closed). Before a used sandbox takes another
 * run, `readmit` checks that it still has its whole allowance.
 */
import { closeSync, readFileSync } from "node:fs";
import type { SandboxSpec } from "./command.ts";
import { allowanceBytes, applyLimits, type KernelLimits, moveMemoryLimit } from "./limits.ts";
import { procStatFields } from "./processes.ts";
import type { ControlMessage } from "./protocol.ts";

/**
 * bubblewrap's --info-fd report, `{ "child-pid": 1234, ... }`: the pid of Bun itself (pid 1
 * inside). Read up to its closing brace rather than to end of file, which only comes once every
 * holder of the pipe (a wrapper such as perf, say) has closed it.
 */
export async function pidFromInfo(fd: number): Promise<number> {
  const reader = Bun.file(fd).stream().getReader();
  const decoder = new TextDecoder();
  let info = "";
  try {
    while (!info.includes("}")) {
      const { value, done } = await reader.read();
      if (done) break;
      info += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel();
    closeSync(fd);
  }
  const pid = Number(/"child-pid":\s*(\d+)/.exec(info)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error("no pid in bubblewrap's report");
  return pid;
}

/** The kernel's own word on a process's filter: mode 2 (filter) and no_new_privs set. */
const filterInForce = (status: string) =>
  /^Seccomp:\s+2$/m.test(status) && /^NoNewPrivs:\s+1$/m.test(status);

/** Virtual memory the process has mapped (VmSize): Bun's heaps reserve far more than they use. */
export function mappedBytes(status: string): number {
  const kib = Number(/^VmSize:\s+(\d+) kB$/m.exec(status)?.[1]);
  if (!Number.isFinite(kib)) throw new Error("no VmSize in the process's status");
  return kib * 1024;
}

/** A sandbox admitted: its Bun process and what its limits were computed from. */
export type Admission = {
  pid: number;
  /** Address space mapped when admitted (the first worker waiting). */
  mappedBytes: number;
  /** Its limits, if it has them (the rlimits layer). */
  limits: KernelLimits | null;
};

/**
 * Room above the first program's address-space limit for the programs after it, in a sandbox
 * that may be reused. Measured on Bun 1.4.4: a sandbox's mapped address space grows in 64 MiB
 * steps over its first dozen workers (reservations kept for the threads that come and go;
 * resident memory grows by tens of kilobytes a run), to about 205 MiB above where it started,
 * and stays there for hundreds of runs (runner.md, "Sandboxes reused by one client"). Past the
 * headroom, a sandbox is not reused.
 */
export const REUSE_HEADROOM_BYTES = 256 * 1024 * 1024;

/** Checks and finishes a sandbox that said ready; returns why it must be discarded, if so. */
export function admit(
  spec: SandboxSpec,
  ready: ControlMessage & { t: "ready" },
  pid: number,
): Admission | string {
  try {
    // One read of the process's status serves both checks.
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    if (spec.seccomp) {
      // Installed by bubblewrap before Bun started, or (without it) by the child, which says so.
      const installed = spec.bwrapPath ? filterInForce(status) : ready.seccomp === "on";
      if (!installed) return `seccomp filter not in force: ${ready.seccomp}`;
    }
    const mapped = mappedBytes(status);
    if (spec.limits) {
      const headroom = spec.reuse ? REUSE_HEADROOM_BYTES : 0;
      const refused = applyLimits(pid, spec.limits, mapped, headroom);
      if (refused.length > 0) return `resource limits refused: ${refused.join(", ")}`;
    }
    return { pid, mappedBytes: mapped, limits: spec.limits };
  } catch (error) {
    return `sandbox could not be checked: ${error instanceof Error ? error.message : error}`;
  }
}

/**
 * CPU time a sandbox must have left of its RLIMIT_CPU for another run: the longest run's wall
 * time (5 s) and a second for its threads, so no run is ever stopped by its predecessors' use.
 */
export const CPU_RESERVE_MS = 6_000;
/** /proc/<pid>/stat counts CPU time in clock ticks, 100 a second on Linux. */
const MS_PER_TICK = 10;

/**
 * From one read of /proc/<pid>/stat: the CPU time the whole process (every thread) has used, in
 * ms, and the address space it maps (the same figure as VmSize).
 */
export function processUsage(pid: number): { cpuMs: number; mappedBytes: number } {
  const fields = procStatFields(pid);
  return {
    cpuMs: (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK, // utime, stime
    mappedBytes: Number(fields[20]), // vsize
  };
}

/**
 * Before a used sandbox takes another run: it must still have the CPU time a run may need, and
 * its next program gets its whole memory allowance above what the process maps now (the soft
 * limit moved, under the hard one set at admission). Returns why it may not, if so.
 */
export function readmit(admission: Admission): string | undefined {
  const { pid, limits } = admission;
  try {
    const { cpuMs, mappedBytes: mapped } = processUsage(pid);
    if (!Number.isFinite(mapped) || !Number.isFinite(cpuMs)) return "its usage could not be read";
    const hard = admission.mappedBytes + REUSE_HEADROOM_BYTES;
    if (!limits) return mapped > hard ? "its address space grew past its headroom" : undefined;
    if (cpuMs > limits.cpuSeconds * 1000 - CPU_RESERVE_MS) {
      return "it has used most of its CPU time limit";
    }
    // The hard limit is the first program's limit plus the headroom (applyLimits).
    const hardLimit = hard + allowanceBytes(limits);
    if (!moveMemoryLimit(pid, limits, mapped, hardLimit)) {
      return "its address space grew past its headroom";
    }
    return undefined;
  } catch (error) {
    return `it could not be checked: ${error instanceof Error ? error.message : error}`;
  }
}
