/**
 * The sandbox's seccomp filter as a classic BPF program (x86_64 only), built here so no native
 * helper or libseccomp is needed: bubblewrap installs it before it starts Bun (see
 * ../command.ts), or, without bubblewrap, the child hands it to the kernel itself (kernel.ts).
 *
 * Policy: an allowlist. The calls Bun was seen to make (syscalls.ts, each with why) are allowed;
 * a few dangerous ones only with the arguments Bun uses (prctl, ioctl, clone, signals,
 * prlimit64); known ways out of a sandbox are refused with EPERM (sockets with EACCES); every
 * other call, including any a future kernel adds, is refused with ENOSYS, which libc and Bun
 * treat as "not available here" and fall back from.
 */
import { ALLOWED, DENIED, FILTERED, SPECIAL } from "./syscalls.ts";

export { SYS } from "./syscalls.ts";

/** AUDIT_ARCH_X86_64: the filter is only correct for this system-call table. */
const AUDIT_ARCH_X86_64 = 0xc000003e;
/** x32 system calls share the x86_64 entry point with this bit set; they are all refused. */
const X32_SYSCALL_BIT = 0x40000000;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | errno;

export const EPERM = 1;
export const EACCES = 13;
export const ENOSYS = 38;

/** clone flags: a thread shares memory, signal handlers and thread group with its creator. */
const THREAD_FLAGS = [0x00000100 /* VM */, 0x00000800 /* SIGHAND */, 0x00010000 /* THREAD */];
/**
 * Never on a clone: new namespaces (NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET),
 * another parent (PARENT), vfork, ptrace and pidfd semantics.
 */
const CLONE_FORBIDDEN =
  0x00020000 |
  0x02000000 |
  0x04000000 |
  0x08000000 |
  0x10000000 |
  0x20000000 |
  0x40000000 |
  0x00008000 |
  0x00004000 |
  0x00002000 |
  0x00800000 |
  0x00001000;

/** prctl options Bun uses: thread names (JSC, mimalloc, Bun's pool) and naming JSC's mappings. */
const PRCTL_ALLOWED = [15 /* PR_SET_NAME */, 16 /* PR_GET_NAME */, 0x53564d41 /* PR_SET_VMA */];
/** ioctl requests Bun uses: isatty() on the standard streams, and the terminal's width. */
const IOCTL_ALLOWED = [0x5401 /* TCGETS */, 0x5413 /* TIOCGWINSZ */];

export type Instruction = { code: number; jt: number; jf: number; k: number };

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const RET_K = 0x06;

const load = (offset: number): Instruction => ({ code: LD_W_ABS, jt: 0, jf: 0, k: offset });
const ret = (value: number): Instruction => ({ code: RET_K, jt: 0, jf: 0, k: value >>> 0 });
const jumpIfEqual = (k: number, jt: number, jf: number): Instruction => ({
  code: JEQ_K,
  jt,
  jf,
  k: k >>> 0,
});
const jumpIfAnyBit = (k: number, jt: number, jf: number): Instruction => ({
  code: JSET_K,
  jt,
  jf,
  k: k >>> 0,
});

/** Offsets in struct seccomp_data; arguments are 64-bit, the low word first on x86_64. */
const NR = 0;
const ARCH = 4;
const argLow = (index: number) => 16 + 8 * index;
const argHigh = (index: number) => 20 + 8 * index;

/**
 * "If the accumulator is one of `values`, return `action`", falling through otherwise. Chunks of
 * at most 200 comparisons each end in their own return, so no jump exceeds BPF's 255.
 */
function returnIfOneOf(values: readonly number[], action: number): Instruction[] {
  const out: Instruction[] = [];
  for (let start = 0; start < values.length; start += 200) {
    const chunk = values.slice(start, start + 200);
    chunk.forEach((value, i) => {
      const last = i === chunk.length - 1;
      out.push(jumpIfEqual(value, chunk.length - 1 - i, last ? 1 : 0));
    });
    out.push(ret(action));
  }
  return out;
}

/**
 * One rule: "if the call is `nr`, run `body`", where every path of `body` returns. A rule that
 * does not match jumps over its body to the next rule, which reloads the call number.
 */
function rule(nr: number, body: Instruction[]): Instruction[] {
  return [load(NR), jumpIfEqual(nr, 0, body.length), ...body];
}

export type FilterOptions = {
  /** The sandboxed process's pid: the only one it may signal. */
  ownPid: number;
  /**
   * For a filter bubblewrap installs: its own execve of Bun comes after the filter, so execve
   * (not execveat) stays allowed. Inside the namespaces it can only start Bun again, in the same
   * process, under the same filter, limits and namespaces (see docs/security-runner.md).
   */
  allowExecve?: boolean;
};

export function buildFilter({ ownPid, allowExecve = false }: FilterOptions): Instruction[] {
  const allow = ret(RET_ALLOW);
  const deny = ret(retErrno(EPERM));
  const enosys = ret(retErrno(ENOSYS));
  /** Allowed when the first argument (an int) is one of `values`. */
  const firstArgIn = (values: number[]) => [
    load(argLow(0)),
    ...returnIfOneOf(values, RET_ALLOW),
    deny,
  ];
  return [
    // A filter for another architecture's call table would allow the wrong calls: kill.
    load(ARCH),
    jumpIfEqual(AUDIT_ARCH_X86_64, 1, 0),
    ret(RET_KILL_PROCESS),
    load(NR),
    jumpIfAnyBit(X32_SYSCALL_BIT, 0, 1),
    deny,
    // The accumulator holds the call number: the plain allowlist first, hot calls at its head.
    ...returnIfOneOf(
      ALLOWED.map(([, nr]) => nr),
      RET_ALLOW,
    ),
    // Threads only: a clone sharing memory, handlers and thread group, with no new namespace.
    ...rule(FILTERED.clone, [
      load(argLow(0)),
      jumpIfAnyBit(CLONE_FORBIDDEN, THREAD_FLAGS.length + 1, 0),
      ...THREAD_FLAGS.map((flag, i) => jumpIfAnyBit(flag, 0, THREAD_FLAGS.length - i)),
      allow,
      deny,
    ]),
    ...rule(FILTERED.prctl, firstArgIn(PRCTL_ALLOWED)),
    ...rule(FILTERED.ioctl, [load(argLow(1)), ...returnIfOneOf(IOCTL_ALLOWED, RET_ALLOW), deny]),
    // Signals only to itself: the first argument is the target process (thread group).
    ...rule(FILTERED.kill, firstArgIn([ownPid])),
    ...rule(FILTERED.tgkill, firstArgIn([ownPid])),
    ...rule(FILTERED.rt_sigqueueinfo, firstArgIn([ownPid])),
    ...rule(FILTERED.rt_tgsigqueueinfo, firstArgIn([ownPid])),
    // Reading its own limits (libc's getrlimit is prlimit64(0, resource, NULL, old)), no more.
    ...rule(FILTERED.prlimit64, [
      load(argLow(0)),
      jumpIfEqual(0, 0, 5),
      load(argLow(2)),
      jumpIfEqual(0, 0, 3),
      load(argHigh(2)),
      jumpIfEqual(0, 0, 1),
      allow,
      deny,
    ]),
    // clone3 passes its flags in memory, out of a filter's reach: ENOSYS makes libc use clone.
    ...rule(SPECIAL.clone3, [enosys]),
    // No sockets at all: no internet, no host or abstract Unix sockets.
    ...rule(SPECIAL.socket, [ret(retErrno(EACCES))]),
    ...(allowExecve ? rule(SPECIAL.execve, [allow]) : []),
    // io_uring (as ENOSYS, so a library would fall back) and the known escape hatches (EPERM).
    load(NR),
    ...returnIfOneOf(
      [SPECIAL.io_uring_setup, SPECIAL.io_uring_enter, SPECIAL.io_uring_register],
      retErrno(ENOSYS),
    ),
    ...returnIfOneOf(
      [...(allowExecve ? [] : [SPECIAL.execve]), ...Object.values(DENIED)],
      retErrno(EPERM),
    ),
    // Everything else, today's unlisted calls and tomorrow's new ones: "no such call".
    enosys,
  ];
}

/** struct sock_filter[]: u16 code, u8 jt, u8 jf, u32 k, little-endian. */
export function encodeFilter(program: Instruction[]): Uint8Array {
  if (program.length > 4096) throw new RangeError("BPF program longer than 4096 instructions");
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach(({ code, jt, jf, k }, i) => {
    if (jt > 255 || jf > 255) throw new RangeError("BPF jump out of range");
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k, true);
  });
  return bytes;
}
