import { describe, expect, test } from "bun:test";
import {
  buildFilter,
  EACCES,
  ENOSYS,
  EPERM,
  encodeFilter,
  SYS,
} from "../src/sandbox/child/seccomp-bpf.ts";

const AUDIT_ARCH_X86_64 = 0xc000003e;
const ALLOW = "allow";
const KILL = "kill";
const OWN_PID = 7;

/**
 * A classic-BPF interpreter for the instructions the filter uses (LD W ABS, JEQ K, JSET K,
 * RET K), run over the encoded bytes: the kernel's view, not the builder's.
 */
function decide(
  nr: number,
  args: number[] = [],
  arch = AUDIT_ARCH_X86_64,
  allowExecve = false,
): string | number {
  const bytes = encodeFilter(buildFilter({ ownPid: OWN_PID, allowExecve }));
  const view = new DataView(bytes.buffer);
  const data = new DataView(new ArrayBuffer(64));
  data.setUint32(0, nr, true);
  data.setUint32(4, arch, true);
  args.forEach((value, i) => {
    data.setUint32(16 + 8 * i, value >>> 0, true);
    data.setUint32(20 + 8 * i, Math.floor(value / 2 ** 32) >>> 0, true);
  });
  let accumulator = 0;
  for (let pc = 0; pc < bytes.byteLength / 8; pc++) {
    const code = view.getUint16(pc * 8, true);
    const jt = view.getUint8(pc * 8 + 2);
    const jf = view.getUint8(pc * 8 + 3);
    const k = view.getUint32(pc * 8 + 4, true);
    if (code === 0x20) accumulator = data.getUint32(k, true);
    else if (code === 0x15) pc += accumulator === k ? jt : jf;
    else if (code === 0x45) pc += (accumulator & k) !== 0 ? jt : jf;
    else if (code === 0x06) {
      if (k === 0x7fff0000) return ALLOW;
      if (k === 0x80000000) return KILL;
      if ((k & 0xffff0000) === 0x00050000) return k & 0xffff;
      throw new Error(`unexpected return ${k.toString(16)}`);
    } else throw new Error(`unexpected instruction ${code.toString(16)}`);
  }
  throw new Error("the program fell off its end");
}

const CLONE_THREAD = 0x10000;
const READ = 0;
const MMAP = 9;
const FUTEX = 202;

describe("seccomp filter (x86_64)", () => {
  test("ordinary calls are allowed", () => {
    for (const nr of [READ, MMAP, FUTEX, 1 /* write */, 231 /* exit_group */]) {
      expect(decide(nr)).toBe(ALLOW);
    }
  });

  test("no new processes: fork, vfork, execve, execveat, clone without CLONE_THREAD", () => {
    expect(decide(SYS.fork)).toBe(EPERM);
    expect(decide(SYS.vfork)).toBe(EPERM);
    expect(decide(SYS.execve)).toBe(EPERM);
    expect(decide(SYS.execveat)).toBe(EPERM);
    expect(decide(SYS.clone, [0x11 /* SIGCHLD, a fork */])).toBe(EPERM);
    expect(decide(SYS.clone, [0x4111 /* CLONE_VM|CLONE_VFORK|SIGCHLD: posix_spawn */])).toBe(EPERM);
  });

  test("the filter bubblewrap installs allows execve, which starts Bun, and nothing more", () => {
    const bubblewrap = (nr: number, args: number[] = []) =>
      decide(nr, args, AUDIT_ARCH_X86_64, true);
    expect(bubblewrap(SYS.execve)).toBe(ALLOW);
    expect(bubblewrap(SYS.execveat)).toBe(EPERM);
    expect(bubblewrap(SYS.fork)).toBe(EPERM);
    expect(bubblewrap(SYS.vfork)).toBe(EPERM);
    expect(bubblewrap(SYS.clone, [0x11])).toBe(EPERM);
    expect(bubblewrap(SYS.socket, [2, 1, 0])).toBe(EACCES);
    expect(bubblewrap(SYS.ptrace)).toBe(EPERM);
  });

  test("threads are allowed; clone3, whose flags it cannot see, falls back to clone", () => {
    expect(decide(SYS.clone, [0x3d0f00 | CLONE_THREAD])).toBe(ALLOW);
    expect(decide(SYS.clone3)).toBe(ENOSYS);
  });

  test("no sockets of any family, and no io_uring to open them behind the filter's back", () => {
    for (const family of [1 /* unix */, 2 /* inet */, 10 /* inet6 */, 16 /* netlink */]) {
      expect(decide(SYS.socket, [family, 1, 0])).toBe(EACCES);
    }
    expect(decide(SYS.io_uring_setup)).toBe(ENOSYS);
  });

  test("signals only to itself", () => {
    expect(decide(SYS.kill, [OWN_PID, 9])).toBe(ALLOW);
    expect(decide(SYS.kill, [0, 9])).toBe(ALLOW);
    expect(decide(SYS.kill, [1, 9])).toBe(EPERM);
    expect(decide(SYS.kill, [-1, 9])).toBe(EPERM);
    expect(decide(SYS.tgkill, [OWN_PID, 12, 10])).toBe(ALLOW);
    expect(decide(SYS.tgkill, [OWN_PID + 1, 12, 10])).toBe(EPERM);
    expect(decide(SYS.tkill)).toBe(EPERM);
  });

  test("limits can be read but not raised", () => {
    expect(decide(SYS.prlimit64, [0, 7, 0, 0x7ffd0000])).toBe(ALLOW);
    expect(decide(SYS.prlimit64, [0, 7, 0x7ffd0000, 0])).toBe(EPERM);
    expect(decide(SYS.prlimit64, [0, 7, 2 ** 33, 0])).toBe(EPERM);
    expect(decide(SYS.setrlimit)).toBe(EPERM);
  });

  test("escape hatches are refused", () => {
    for (const nr of [
      SYS.ptrace,
      SYS.mount,
      SYS.unshare,
      SYS.setns,
      SYS.bpf,
      SYS.userfaultfd,
      SYS.keyctl,
      SYS.open_by_handle_at,
      SYS.process_vm_readv,
      SYS.perf_event_open,
      SYS.pidfd_open,
    ]) {
      expect(decide(nr)).toBe(EPERM);
    }
  });

  test("another architecture is killed; x32 calls are refused", () => {
    expect(decide(READ, [], 0x40000003 /* i386 */)).toBe(KILL);
    expect(decide(0x40000000 | SYS.execve)).toBe(EPERM);
  });

  test("every jump stays inside the program", () => {
    const program = buildFilter({ ownPid: OWN_PID });
    program.forEach(({ code, jt, jf }, pc) => {
      if (code === 0x15 || code === 0x45) {
        expect(pc + 1 + Math.max(jt, jf)).toBeLessThan(program.length);
      }
    });
    expect(program.at(-1)).toEqual({ code: 0x06, jt: 0, jf: 0, k: 0x7fff0000 });
  });
});
