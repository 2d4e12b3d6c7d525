/**
 * The seccomp filter, installed by the child itself when no bubblewrap installs it before Bun
 * starts (namespaces off): through libc.ts, synchronised to every thread Bun has started, before
 * any untrusted code exists in the process. Built as its own file (KERNEL_FILE) that main.ts
 * loads only then, so other sandboxes do not parse it.
 */
import { type Libc, loadLibc } from "./libc.ts";
import { buildFilter, encodeFilter } from "./seccomp-bpf.ts";

const SYS = { prctl: 157, seccomp: 317 } as const;
const PR_SET_NO_NEW_PRIVS = 38;
const SECCOMP_SET_MODE_FILTER = 1;
const SECCOMP_FILTER_FLAG_TSYNC = 1;

/** Installs the filter on every thread; throws when the kernel will not have it. */
export function installSeccomp(ownPid: number): void {
  applySeccomp(loadLibc(), ownPid);
}

function applySeccomp({ syscall, address }: Libc, ownPid: number): void {
  if (process.arch !== "x64") throw new Error(`no seccomp filter for ${process.arch}`);
  if (syscall(SYS.prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0) {
    throw new Error("PR_SET_NO_NEW_PRIVS refused");
  }
  const filter = encodeFilter(buildFilter({ ownPid }));
  // struct sock_fprog: u16 length, 6 bytes of padding, then the pointer to the instructions.
  const program = new BigUint64Array(2);
  new DataView(program.buffer).setUint16(0, filter.byteLength / 8, true);
  program[1] = BigInt(address(filter));
  const result = syscall(
    SYS.seccomp,
    SECCOMP_SET_MODE_FILTER,
    SECCOMP_FILTER_FLAG_TSYNC,
    address(program),
  );
  if (result !== 0) throw new Error(`seccomp refused (${result})`);
}
