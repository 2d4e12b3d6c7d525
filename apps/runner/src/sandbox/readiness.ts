/**
 * What the runner does when a sandbox says it is ready, before the pool may hand it a program:
 * find its Bun process, check that the seccomp filter is in force there, and set its resource
 * limits. Any failure discards the sandbox (fail closed).
 */
import { closeSync, readFileSync } from "node:fs";
import type { SandboxSpec } from "./command.ts";
import { applyLimits } from "./limits.ts";
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

/** Checks and finishes a sandbox that said ready; returns why it must be discarded, if so. */
export function admit(
  spec: SandboxSpec,
  ready: ControlMessage & { t: "ready" },
  pid: number,
): string | undefined {
  try {
    // One read of the process's status serves both checks.
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    if (spec.seccomp) {
      // Installed by bubblewrap before Bun started, or (without it) by the child, which says so.
      const installed = spec.bwrapPath ? filterInForce(status) : ready.seccomp === "on";
      if (!installed) return `seccomp filter not in force: ${ready.seccomp}`;
    }
    if (spec.limits) {
      const refused = applyLimits(pid, spec.limits, mappedBytes(status));
      if (refused.length > 0) return `resource limits refused: ${refused.join(", ")}`;
    }
    return undefined;
  } catch (error) {
    return `sandbox could not be checked: ${error instanceof Error ? error.message : error}`;
  }
}
