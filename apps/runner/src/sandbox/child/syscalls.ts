/**
 * The x86_64 system calls the sandbox's seccomp filter (seccomp-bpf.ts) knows by name: what Bun
 * may call, and what it is refused with a named error. Everything else, including every call a
 * future kernel adds, is refused with ENOSYS by the filter's default.
 *
 * Derived by tracing real sandboxes (strace -f over bubblewrap and over the child that installs
 * the filter itself; see docs/security-runner.md, "seccomp allowlist") running a varied set of
 * programs: timers, Atomics.wait, allocation and GC pressure, a memory bomb, an endless loop,
 * errors, crypto, Intl, JIT-heavy loops, 64 KiB of output. Numbers: syscall_64.tbl.
 */

/**
 * Allowed whatever their arguments, hot ones first: the filter compares in this order, so the
 * calls a busy program makes most often cost the fewest instructions (kernels since 5.11 also
 * cache calls a filter always allows and skip the filter for them).
 */
export const ALLOWED: readonly (readonly [name: string, nr: number])[] = [
  ["futex", 202], // JSC's locks and parking, Atomics.wait, thread-pool wake-ups
  ["read", 0], // the program's stdin (prompt()), files the loader opens, eventfd wake-ups
  ["sendto", 44], // Bun writes stdout and stderr (socketpairs from the runner) with MSG_DONTWAIT
  ["write", 1], // writes to pipes and eventfds, and libc's fatal-error messages
  ["mmap", 9], // every heap, arena, thread stack and JIT region (PROT_EXEC for the JIT)
  ["madvise", 28], // mimalloc and JSC give pages back (MADV_DONTNEED, MADV_FREE)
  ["munmap", 11], // heaps and stacks released
  ["mprotect", 10], // guard pages, the loader's relro, JIT code made executable
  ["epoll_pwait2", 441], // Bun's event loop waits (timers, stdout backpressure)
  ["epoll_pwait", 281], // (not traced: kernel 6.18 has epoll_pwait2) the same wait where epoll_pwait2 is missing (kernels before 5.11)
  ["epoll_ctl", 233], // the event loop (re)arms the standard streams and its eventfd
  ["openat", 257], // the loader and harness (/bun, /lib, /runner, /proc/self/maps), ICU data
  ["close", 3], // descriptors opened above
  ["newfstatat", 262], // module resolution and the loader stat files
  ["fstat", 5], // the loader and Bun on opened files
  ["getdents64", 217], // Bun lists /proc/self/fd and module folders at start-up
  ["rt_sigprocmask", 14], // threads block signals around their creation; JSC's signal handling
  ["rt_sigaction", 13], // Bun's and JSC's signal handlers at start-up (SIGPIPE, crash handlers)
  ["rt_sigreturn", 15], // (not traced: no signal was handled) returns from any signal handler (without it a handled signal kills)
  ["fcntl", 72], // Bun duplicates the standard streams and sets O_NONBLOCK on them
  ["getrandom", 318], // crypto.getRandomValues/randomUUID, Math.random seeds, hash seeds
  ["gettid", 186], // JSC and mimalloc identify threads
  ["getpid", 39], // Bun and libc (process.pid, the harness's own pid)
  ["sched_getaffinity", 204], // JSC and Bun size their thread pools from the usable CPUs
  ["sched_yield", 24], // JSC's spin locks back off
  ["clock_gettime", 228], // (not traced: the vDSO answered) Date.now, performance.now (normally the vDSO; the call is its fallback)
  ["clock_nanosleep", 230], // (not traced) sleeping threads: libc's sleep, usleep
  ["nanosleep", 35], // (not traced) the same, through older libc paths
  ["brk", 12], // libc's malloc (the loader, ICU)
  ["mremap", 25], // (not traced) libc's realloc of large blocks
  ["access", 21], // the loader (ld.so.preload) and mimalloc probe /sys for NUMA nodes
  ["open", 2], // mimalloc reads /proc/sys/vm/overcommit_memory
  ["readlink", 89], // Bun resolves /proc/self/exe and its entry file, ICU the time zone
  ["pread64", 17], // the dynamic loader reads ELF headers
  ["poll", 7], // the checker (checker/main.ts) reads its requests as a stream: stdin readiness
  ["preadv2", 327], // the same stream's reads from a pipe (RWF_NOWAIT)
  ["recvfrom", 45], // the same stream's reads from a socketpair (Bun.spawn's stdin); no new socket
  ["sysinfo", 99], // Bun and JSC size the heap from the machine's memory
  ["uname", 63], // Bun and libc check the kernel version at start-up
  ["getcwd", 79], // module resolution relative to the working directory
  ["set_robust_list", 273], // every new thread (libc)
  ["rseq", 334], // every new thread (libc's restartable sequences)
  ["set_tid_address", 218], // the main thread's start (libc)
  ["arch_prctl", 158], // the loader sets the thread pointer (TLS); affects the caller only
  ["sigaltstack", 131], // Bun's crash handler runs on its own stack
  ["epoll_create1", 291], // Bun's event loop, once
  ["eventfd2", 290], // the event loop's wake-up descriptor, once
  ["exit", 60], // (not traced: runs were short) a thread ends (Bun's pool shrinks when idle)
  ["exit_group", 231], // the process ends
  ["close_range", 436], // bubblewrap marks inherited descriptors close-on-exec after the filter
  ["restart_syscall", 219], // (not traced) the kernel resumes a sleep interrupted by a signal
];

/** Calls with an argument filter in seccomp-bpf.ts (why each is needed is said there). */
export const FILTERED = {
  ioctl: 16,
  clone: 56,
  kill: 62,
  rt_sigqueueinfo: 129,
  prctl: 157,
  tgkill: 234,
  rt_tgsigqueueinfo: 297,
  prlimit64: 302,
} as const;

/** Calls with a fixed answer of their own (seccomp-bpf.ts). */
export const SPECIAL = {
  socket: 41,
  execve: 59,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  clone3: 435,
} as const;

/**
 * Refused with EPERM, not the default ENOSYS: each is a known way out of a sandbox or into the
 * kernel's riskier corners, and EPERM says "not allowed here" rather than "no such call".
 */
export const DENIED = {
  fork: 57,
  vfork: 58,
  execveat: 322,
  ptrace: 101,
  process_vm_readv: 310,
  process_vm_writev: 311,
  tkill: 200,
  kcmp: 312,
  pidfd_send_signal: 424,
  pidfd_open: 434,
  pidfd_getfd: 438,
  setrlimit: 160,
  personality: 135,
  modify_ldt: 154,
  seccomp: 317,
  mount: 165,
  umount2: 166,
  pivot_root: 155,
  chroot: 161,
  unshare: 272,
  setns: 308,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  mount_setattr: 442,
  statmount: 457,
  listmount: 458,
  open_tree_attr: 467,
  name_to_handle_at: 303,
  open_by_handle_at: 304,
  memfd_secret: 447,
  userfaultfd: 323,
  bpf: 321,
  perf_event_open: 298,
  keyctl: 250,
  add_key: 248,
  request_key: 249,
  kexec_load: 246,
  kexec_file_load: 320,
  init_module: 175,
  finit_module: 313,
  delete_module: 176,
  reboot: 169,
  swapon: 167,
  swapoff: 168,
  acct: 163,
  syslog: 103,
  iopl: 172,
  ioperm: 173,
  fanotify_init: 300,
} as const;

/** Every number named here, for the tests and the filter. */
export const SYS = { ...FILTERED, ...SPECIAL, ...DENIED } as const;
