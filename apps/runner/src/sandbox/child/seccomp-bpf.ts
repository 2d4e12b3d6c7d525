/**
 * The sandbox's seccomp filter as a classic BPF program (x86_64 only), built here so no native
 * helper or libseccomp is needed: bubblewrap installs it before it starts Bun (see
 * ../command.ts), or, without bubblewrap, the child hands it to the kernel itself (kernel.ts).
 *
 * Policy: everything is allowed except what would let a program leave the sandbox or reach the
 * network: new processes (fork, vfork, clone without CLONE_THREAD, execve), sockets of any
 * family, signals to other processes, and the kernel interfaces that sandboxes are escaped
 * through (ptrace, mount, namespaces, io_uring, bpf, keyrings, ...).
 */

/** AUDIT_ARCH_X86_64: the filter is only correct for this system-call table. */
const AUDIT_ARCH_X86_64 = 0xc000003e;
/** x32 system calls share the x86_64 entry point with this bit set; they are all refused. */
const X32_SYSCALL_BIT = 0x40000000;
const CLONE_THREAD = 0x00010000;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | errno;

export const EPERM = 1;
export const EACCES = 13;
export const ENOSYS = 38;

/** x86_64 system-call numbers (arch/x86/entry/syscalls/syscall_64.tbl). */
export const SYS = {
  socket: 41,
  clone: 56,
  fork: 57,
  vfork: 58,
  execve: 59,
  kill: 62,
  ptrace: 101,
  syslog: 103,
  personality: 135,
  pivot_root: 155,
  setrlimit: 160,
  chroot: 161,
  acct: 163,
  mount: 165,
  umount2: 166,
  swapon: 167,
  swapoff: 168,
  reboot: 169,
  iopl: 172,
  ioperm: 173,
  init_module: 175,
  delete_module: 176,
  tkill: 200,
  tgkill: 234,
  kexec_load: 246,
  add_key: 248,
  request_key: 249,
  keyctl: 250,
  unshare: 272,
  perf_event_open: 298,
  fanotify_init: 300,
  prlimit64: 302,
  name_to_handle_at: 303,
  open_by_handle_at: 304,
  setns: 308,
  process_vm_readv: 310,
  process_vm_writev: 311,
  finit_module: 313,
  kexec_file_load: 320,
  bpf: 321,
  execveat: 322,
  userfaultfd: 323,
  pidfd_send_signal: 424,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  pidfd_open: 434,
  clone3: 435,
  pidfd_getfd: 438,
  mount_setattr: 442,
} as const;

/** Refused outright with EPERM: each is a way out of a sandbox, and Bun needs none of them. */
const DENIED: readonly number[] = [
  SYS.fork,
  SYS.vfork,
  SYS.execve,
  SYS.execveat,
  SYS.ptrace,
  SYS.process_vm_readv,
  SYS.process_vm_writev,
  SYS.tkill,
  SYS.pidfd_open,
  SYS.pidfd_send_signal,
  SYS.pidfd_getfd,
  SYS.setrlimit,
  SYS.mount,
  SYS.umount2,
  SYS.pivot_root,
  SYS.chroot,
  SYS.unshare,
  SYS.setns,
  SYS.open_tree,
  SYS.move_mount,
  SYS.fsopen,
  SYS.fsconfig,
  SYS.fsmount,
  SYS.fspick,
  SYS.mount_setattr,
  SYS.name_to_handle_at,
  SYS.open_by_handle_at,
  SYS.bpf,
  SYS.perf_event_open,
  SYS.userfaultfd,
  SYS.keyctl,
  SYS.add_key,
  SYS.request_key,
  SYS.kexec_load,
  SYS.kexec_file_load,
  SYS.init_module,
  SYS.finit_module,
  SYS.delete_module,
  SYS.reboot,
  SYS.swapon,
  SYS.swapoff,
  SYS.acct,
  SYS.syslog,
  SYS.iopl,
  SYS.ioperm,
  SYS.personality,
  SYS.fanotify_init,
];

type Instruction = { code: number; jt: number; jf: number; k: number };

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
   * process, under the same filter, limits and namespaces (see docs/security.md).
   */
  allowExecve?: boolean;
};

export function buildFilter({ ownPid, allowExecve = false }: FilterOptions): Instruction[] {
  const deny = ret(retErrno(EPERM));
  const denied = allowExecve ? DENIED.filter((nr) => nr !== SYS.execve) : DENIED;
  return [
    // A filter for another architecture's call table would allow the wrong calls: kill.
    load(ARCH),
    jumpIfEqual(AUDIT_ARCH_X86_64, 1, 0),
    ret(RET_KILL_PROCESS),
    load(NR),
    jumpIfAnyBit(X32_SYSCALL_BIT, 0, 1),
    deny,
    // Threads are clones with CLONE_THREAD; anything else would be a new process.
    ...rule(SYS.clone, [load(argLow(0)), jumpIfAnyBit(CLONE_THREAD, 0, 1), ret(RET_ALLOW), deny]),
    // clone3 passes its flags in memory, out of a filter's reach: ENOSYS makes libc use clone.
    ...rule(SYS.clone3, [ret(retErrno(ENOSYS))]),
    // io_uring can open sockets and files without the system calls this filter sees.
    ...rule(SYS.io_uring_setup, [ret(retErrno(ENOSYS))]),
    ...rule(SYS.io_uring_enter, [ret(retErrno(ENOSYS))]),
    ...rule(SYS.io_uring_register, [ret(retErrno(ENOSYS))]),
    // No sockets at all: no internet, no host or abstract Unix sockets. socketpair stays.
    ...rule(SYS.socket, [ret(retErrno(EACCES))]),
    // Signals only to itself (0 is its own process group, which only it is in).
    ...rule(SYS.kill, signalOwnOnly(ownPid)),
    ...rule(SYS.tgkill, signalOwnOnly(ownPid)),
    // Reading limits stays possible (libc's getrlimit is prlimit64 with no new limit).
    ...rule(SYS.prlimit64, [
      load(argLow(2)),
      jumpIfEqual(0, 0, 3),
      load(argHigh(2)),
      jumpIfEqual(0, 0, 1),
      ret(RET_ALLOW),
      deny,
    ]),
    ...denied.flatMap((nr) => rule(nr, [deny])),
    ret(RET_ALLOW),
  ];
}

/** Allowed when the target pid (first argument, an int) is the process itself or 0. */
function signalOwnOnly(ownPid: number): Instruction[] {
  return [
    load(argLow(0)),
    jumpIfEqual(ownPid, 2, 0),
    jumpIfEqual(0, 1, 0),
    ret(retErrno(EPERM)),
    ret(RET_ALLOW),
  ];
}

/** struct sock_filter[]: u16 code, u8 jt, u8 jf, u32 k, little-endian. */
export function encodeFilter(program: Instruction[]): Uint8Array {
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
