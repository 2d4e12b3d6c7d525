import { describe, expect, test } from "bun:test";
import {
  buildFilter,
  EACCES,
  ENOSYS,
  EPERM,
  encodeFilter,
  SYS,
} from "../src/sandbox/child/seccomp-bpf.ts";
import { ALLOWED, DENIED } from "../src/sandbox/child/syscalls.ts";

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
/** What glibc's pthread_create passes: VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|TIDs. */
const THREAD = 0x3d0f00;
const READ = 0;
const MMAP = 9;
const FUTEX = 202;

describe("seccomp filter (x86_64): an allowlist", () => {
  test("every allowlisted call is allowed with ordinary arguments", () => {
    expect(ALLOWED.length).toBeGreaterThan(30);
    for (const [name, nr] of ALLOWED) {
      expect([name, decide(nr, [3, 0x7ffd0000, 4096, 0, 0, 0])]).toEqual([name, ALLOW]);
    }
    for (const nr of [READ, MMAP, FUTEX]) expect(decide(nr)).toBe(ALLOW);
  });

  test("every other call, including future ones, is refused with ENOSYS", () => {
    for (const nr of [
      470, 500, 1000, 0x3fffffff, 102 /* getuid */, 110 /* getppid */, 53 /* socketpair */,
      22 /* pipe */, 319 /* memfd_create */, 86 /* link */, 83 /* mkdir */,
    ]) {
      expect(decide(nr)).toBe(ENOSYS);
    }
  });

  test("known escape hatches are refused with EPERM, those the review named among them", () => {
    const named = ["personality", "modify_ldt", "kcmp", "memfd_secret", "statmount", "listmount"];
    expect(Object.keys(DENIED)).toEqual(expect.arrayContaining([...named, "open_tree_attr"]));
    for (const [name, nr] of Object.entries(DENIED)) {
      expect([name, decide(nr)]).toEqual([name, EPERM]);
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
    expect(bubblewrap(470)).toBe(ENOSYS);
    expect(bubblewrap(FUTEX)).toBe(ALLOW);
  });

  test("threads only: clone needs VM, SIGHAND and THREAD, and no namespace or parent flag", () => {
    expect(decide(SYS.clone, [THREAD])).toBe(ALLOW);
    expect(decide(SYS.clone, [THREAD & ~0x100 /* no CLONE_VM */])).toBe(EPERM);
    expect(decide(SYS.clone, [THREAD & ~0x800 /* no CLONE_SIGHAND */])).toBe(EPERM);
    expect(decide(SYS.clone, [THREAD & ~CLONE_THREAD])).toBe(EPERM);
    for (const flag of [
      0x20000 /* NEWNS */, 0x2000000 /* NEWCGROUP */, 0x4000000 /* NEWUTS */,
      0x8000000 /* NEWIPC */, 0x10000000 /* NEWUSER */, 0x20000000 /* NEWPID */,
      0x40000000 /* NEWNET */, 0x8000 /* PARENT */, 0x4000 /* VFORK */, 0x2000 /* PTRACE */,
      0x1000 /* PIDFD */,
    ]) {
      expect(decide(SYS.clone, [THREAD | flag])).toBe(EPERM);
    }
    // clone3 passes its flags in memory, out of the filter's reach: libc falls back to clone.
    expect(decide(SYS.clone3)).toBe(ENOSYS);
  });

  test("prctl: thread names and mapping names only", () => {
    expect(decide(SYS.prctl, [15 /* PR_SET_NAME */, 0x7ffd0000])).toBe(ALLOW);
    expect(decide(SYS.prctl, [16 /* PR_GET_NAME */, 0x7ffd0000])).toBe(ALLOW);
    expect(decide(SYS.prctl, [0x53564d41 /* PR_SET_VMA */, 0, 0x7f000000, 4096])).toBe(ALLOW);
    for (const option of [
      1 /* PR_SET_PDEATHSIG */, 4 /* PR_SET_DUMPABLE */, 22 /* PR_SET_SECCOMP */,
      38 /* PR_SET_NO_NEW_PRIVS */, 35 /* PR_SET_MM */, 0x59616d61 /* PR_SET_PTRACER */,
      47 /* PR_CAP_AMBIENT */, 24 /* PR_CAPBSET_DROP */, 36 /* PR_SET_CHILD_SUBREAPER */,
      8 /* PR_SET_KEEPCAPS */, 0,
    ]) {
      expect([option, decide(SYS.prctl, [option, 0])]).toEqual([option, EPERM]);
    }
  });

  test("ioctl: terminal queries only", () => {
    expect(decide(SYS.ioctl, [1, 0x5401 /* TCGETS */, 0x7ffd0000])).toBe(ALLOW);
    expect(decide(SYS.ioctl, [1, 0x5413 /* TIOCGWINSZ */, 0x7ffd0000])).toBe(ALLOW);
    for (const request of [0x5412 /* TIOCSTI */, 0x5421 /* FIONBIO */, 0x4b3a, 0xc0086420, 0]) {
      expect(decide(SYS.ioctl, [1, request, 0])).toBe(EPERM);
    }
  });

  test("no sockets of any family, and no io_uring to open them behind the filter's back", () => {
    for (const family of [1 /* unix */, 2 /* inet */, 10 /* inet6 */, 16 /* netlink */]) {
      expect(decide(SYS.socket, [family, 1, 0])).toBe(EACCES);
    }
    expect(decide(SYS.io_uring_setup)).toBe(ENOSYS);
    expect(decide(SYS.io_uring_enter)).toBe(ENOSYS);
    expect(decide(SYS.io_uring_register)).toBe(ENOSYS);
  });

  test("signals and queued signals only to itself", () => {
    expect(decide(SYS.kill, [OWN_PID, 9])).toBe(ALLOW);
    expect(decide(SYS.tgkill, [OWN_PID, 12, 10])).toBe(ALLOW);
    expect(decide(SYS.rt_sigqueueinfo, [OWN_PID, 10, 0x7ffd0000])).toBe(ALLOW);
    expect(decide(SYS.rt_tgsigqueueinfo, [OWN_PID, 12, 10, 0x7ffd0000])).toBe(ALLOW);
    for (const pid of [0, 1, 2, -1, OWN_PID + 1]) {
      expect(decide(SYS.kill, [pid, 9])).toBe(EPERM);
      expect(decide(SYS.tgkill, [pid, 12, 10])).toBe(EPERM);
      expect(decide(SYS.rt_sigqueueinfo, [pid, 10, 0x7ffd0000])).toBe(EPERM);
      expect(decide(SYS.rt_tgsigqueueinfo, [pid, pid, 10, 0x7ffd0000])).toBe(EPERM);
    }
    expect(decide(SYS.tkill)).toBe(EPERM);
    expect(decide(SYS.pidfd_send_signal)).toBe(EPERM);
  });

  test("its own limits can be read but not raised, nor another process's read", () => {
    expect(decide(SYS.prlimit64, [0, 7, 0, 0x7ffd0000])).toBe(ALLOW);
    expect(decide(SYS.prlimit64, [0, 7, 0x7ffd0000, 0])).toBe(EPERM);
    expect(decide(SYS.prlimit64, [0, 7, 2 ** 33, 0])).toBe(EPERM);
    expect(decide(SYS.prlimit64, [2, 7, 0, 0x7ffd0000])).toBe(EPERM);
    expect(decide(SYS.setrlimit)).toBe(EPERM);
  });

  test("another architecture is killed; x32 calls are refused", () => {
    expect(decide(READ, [], 0x40000003 /* i386 */)).toBe(KILL);
    expect(decide(0x40000000 | SYS.execve)).toBe(EPERM);
    expect(decide(0x40000000 | READ)).toBe(EPERM);
  });

  test("every jump stays inside the program, within BPF's limits", () => {
    for (const allowExecve of [false, true]) {
      const program = buildFilter({ ownPid: OWN_PID, allowExecve });
      expect(program.length).toBeLessThanOrEqual(4096);
      program.forEach(({ code, jt, jf }, pc) => {
        if (code === 0x15 || code === 0x45) {
          expect(Math.max(jt, jf)).toBeLessThanOrEqual(255);
          expect(pc + 1 + Math.max(jt, jf)).toBeLessThan(program.length);
        }
      });
      expect(program.at(-1)).toEqual({ code: 0x06, jt: 0, jf: 0, k: 0x00050000 | ENOSYS });
    }
  });

  test("the hottest calls are decided within a few instructions", () => {
    const program = buildFilter({ ownPid: OWN_PID });
    const firstAllow = program.findIndex(({ code, k }) => code === 0x15 && k === FUTEX);
    expect(firstAllow).toBeLessThan(8);
  });
});
