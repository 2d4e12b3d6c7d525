/**
 * The seccomp allowlist as the kernel applies it, in real sandboxes: a program with bun:ffi
 * (static check and lockdown off, so nothing but the filter stands in its way) makes raw system
 * calls through libc's syscall() and reports each errno; and ordinary programs still run, under
 * bubblewrap's filter and under the one the child installs itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { defaultLimits } from "../src/sandbox/setup.ts";
import { ORDINARY } from "./fixtures/ordinary.ts";
import { ALL_LAYERS, bwrapPath, NO_LAYERS, testRunner } from "./support.ts";

const EPERM = 1;
const EACCES = 13;
const ENOSYS = 38;

/** A raw call: its number, then arguments; INFO, BUF and PID are filled in inside. */
type Raw = (number | "INFO" | "BUF" | "PID")[];

/**
 * Prints {name: result} where result is the call's return value, or "E<errno>" when it returned
 * -1. Signals are all signal 0 (an existence check), so no call can harm anything if allowed.
 */
const rawCalls = (calls: Record<string, Raw>) => `
import { dlopen, ptr, read } from "bun:ffi";
const { symbols } = dlopen("libc.so.6", {
  syscall: { args: ["i64", "i64", "i64", "i64", "i64", "i64", "i64"], returns: "i64" },
  __errno_location: { args: [], returns: "ptr" },
});
const info = new Int32Array(32);
info[2] = -1; // si_code SI_QUEUE
const buffer = new Uint8Array(4096);
const args = (list) => list.map((a) => (a === "INFO" ? ptr(info) : a === "BUF" ? ptr(buffer) : a === "PID" ? process.pid : a));
const results = {};
for (const [name, [nr, ...rest]] of Object.entries(${JSON.stringify(calls)})) {
  const padded = [...args(rest), 0, 0, 0, 0, 0, 0].slice(0, 6);
  const value = Number(symbols.syscall(nr, ...padded));
  results[name] = value === -1 ? "E" + read.i32(symbols.__errno_location(), 0) : value;
}
console.log(JSON.stringify(results));
`;

/** Each call, and what the filter must answer: an errno, or "ok" for an allowed call. */
const CASES: Record<string, { call: Raw; expect: number | "ok" }> = {
  "prctl(PR_SET_PDEATHSIG, 0)": { call: [157, 1, 0], expect: EPERM },
  "prctl(PR_SET_DUMPABLE, 1)": { call: [157, 4, 1], expect: EPERM },
  "prctl(PR_SET_NO_NEW_PRIVS, 1)": { call: [157, 38, 1, 0, 0, 0], expect: EPERM },
  "prctl(PR_SET_NAME)": { call: [157, 15, "BUF"], expect: "ok" },
  "rt_sigqueueinfo(2, 0)": { call: [129, 2, 0, "INFO"], expect: EPERM },
  "rt_sigqueueinfo(own pid, 0)": { call: [129, "PID", 0, "INFO"], expect: "ok" },
  "rt_tgsigqueueinfo(2, 2, 0)": { call: [297, 2, 2, 0, "INFO"], expect: EPERM },
  "kill(2, 0)": { call: [62, 2, 0], expect: EPERM },
  "kill(0, 0)": { call: [62, 0, 0], expect: EPERM },
  "kill(own pid, 0)": { call: [62, "PID", 0], expect: "ok" },
  "tkill(own pid, 0)": { call: [200, "PID", 0], expect: EPERM },
  open_tree_attr: { call: [467, -100, "BUF", 0, 0, 0], expect: EPERM },
  listmount: { call: [458, "BUF", "BUF", 0, 0], expect: EPERM },
  statmount: { call: [457, "BUF", "BUF", 0, 0], expect: EPERM },
  memfd_secret: { call: [447, 0], expect: EPERM },
  kcmp: { call: [312, "PID", "PID", 0, 0, 0], expect: EPERM },
  "modify_ldt(read)": { call: [154, 0, "BUF", 16], expect: EPERM },
  "personality(query)": { call: [135, 0xffffffff], expect: EPERM },
  "seccomp(GET_ACTION_AVAIL)": { call: [317, 2, 0, "BUF"], expect: EPERM },
  userfaultfd: { call: [323, 0], expect: EPERM },
  "unshare(CLONE_NEWUSER)": { call: [272, 0x10000000], expect: EPERM },
  "clone(CLONE_NEWUSER|CLONE_THREAD|...)": { call: [56, 0x10010900, 0, 0, 0, 0], expect: EPERM },
  clone3: { call: [435, "BUF", 88], expect: ENOSYS },
  "ioctl(1, TIOCSTI)": { call: [16, 1, 0x5412, "BUF"], expect: EPERM },
  "prlimit64(set)": { call: [302, 0, 7, "BUF", 0], expect: EPERM },
  "socket(AF_INET)": { call: [41, 2, 1, 0], expect: EACCES },
  "socketpair(AF_UNIX)": { call: [53, 1, 1, 0, "BUF"], expect: ENOSYS },
  io_uring_setup: { call: [425, 1, "BUF"], expect: ENOSYS },
  "getppid (exists, not allowed)": { call: [110], expect: ENOSYS },
  "future call 470": { call: [470], expect: ENOSYS },
  "future call 1000": { call: [1000], expect: ENOSYS },
  getpid: { call: [39], expect: "ok" },
};
/** Pid 1 is the sandbox itself under bubblewrap (--as-pid-1), the host's init without it. */
const PID_1 = "rt_sigqueueinfo(1, 0)";
const program = rawCalls({
  ...Object.fromEntries(Object.entries(CASES).map(([name, { call }]) => [name, call])),
  [PID_1]: [129, 1, 0, "INFO"],
});
const expected = (pid1: "ok" | "E1") => ({
  ...Object.fromEntries(
    Object.entries(CASES).map(([name, { expect: e }]) => [name, e === "ok" ? "ok" : `E${e}`]),
  ),
  [PID_1]: pid1,
});
const outcome = (output: string) =>
  Object.fromEntries(
    Object.entries(JSON.parse(output) as Record<string, number | string>).map(([name, v]) => [
      name,
      typeof v === "number" && v >= 0 ? "ok" : v,
    ]),
  );

function withRunner(layers: Partial<typeof NO_LAYERS>) {
  const state: { runner?: SandboxRunner } = {};
  beforeAll(async () => {
    // The shipped memory allowance (RUNNER_MEMORY_MB's default), not the tests' smaller one: the
    // ordinary programs here allocate as real ones do, and at 128 MiB the GC-pressure one could
    // run out depending on when collections happen.
    state.runner = await testRunner({ ...NO_LAYERS, ...layers }, { limits: defaultLimits(256) });
  });
  afterAll(() => state.runner?.close());
  return (code: string, timeoutMs = 5_000) => {
    if (!state.runner) throw new Error("runner not started");
    return state.runner.run(code, timeoutMs);
  };
}

for (const [where, layers, pid1] of [
  ["installed by bubblewrap", { namespaces: true }, "ok"],
  ["installed by the sandbox itself", {}, "E1"],
] as const) {
  describe.skipIf(where === "installed by bubblewrap" && !bwrapPath)(
    `seccomp allowlist ${where}`,
    () => {
      const run = withRunner({ seccomp: true, ...layers });

      test("the kernel refuses each call with the expected errno", async () => {
        const result = await run(program);
        expect(result.error).toBeNull();
        expect(outcome(result.output)).toEqual(expected(pid1));
      });
    },
  );
}

for (const [where, layers] of [
  ["under bubblewrap's filter", ALL_LAYERS],
  ["under the filter the sandbox installs", { ...ALL_LAYERS, namespaces: false }],
] as const) {
  describe.skipIf(layers.namespaces && !bwrapPath)(`ordinary programs ${where}`, () => {
    const run = withRunner(layers);
    for (const [name, { code, timeoutMs, expect: wanted, errorContains }] of Object.entries(
      ORDINARY,
    )) {
      test(name, async () => {
        const result = await run(code, timeoutMs);
        expect(result).toMatchObject(wanted);
        if (errorContains) expect(result.error).toContain(errorContains);
      });
    }
  });
}
