/**
 * Programs built to hurt the runner rather than escape it: compile-time bombs, huge errors with
 * the built-ins the harness uses replaced, memory exhaustion. The runner answers each with a
 * clear error, its own memory stays small and its health probe answers throughout.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { get } from "@platform/server/testing";
import type { App } from "../src/app.ts";
import { CHECKER_FILE } from "../src/sandbox/harness.ts";
import { ERROR_MAX_BYTES, ERROR_TRUNCATION_MARKER, toRunResult } from "../src/sandbox/result.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { enumBomb } from "./fixtures/bombs.ts";
import { ALL_LAYERS, bwrapPath, type RunBody, runRequest, TEST_ROOT, testApp } from "./support.ts";

let app: App;
let runner: SandboxRunner;
beforeAll(async () => {
  if (!bwrapPath) return; // the sandbox tests below are skipped
  ({ app, runner } = await testApp(ALL_LAYERS, { poolSize: 2, checkers: 2 }));
});
afterAll(() => runner?.close());

async function run(body: { code: string; timeout?: number }): Promise<RunBody> {
  const response = await app.handle(runRequest(body));
  expect(response.status).toBe(200);
  return (await response.json()) as RunBody;
}

/** Runs `work` while polling /health/live; returns the slowest probe answer, in ms. */
async function slowestProbeDuring(work: Promise<unknown>): Promise<number> {
  let done = false;
  let slowest = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await app.handle(get("/health/live"));
      expect(response.status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      await Bun.sleep(20);
    }
  })();
  await work.finally(() => {
    done = true;
  });
  await probing;
  return slowest;
}

describe.skipIf(!bwrapPath)("compile-time bombs are checked outside the runner's process", () => {
  const MIB = 1024 * 1024;

  for (const kind of ["enum", "const enum", "template"] as const) {
    test(`a ${kind} whose members double: a clear error, the runner unharmed`, async () => {
      const code = enumBomb(kind, 30);
      expect(code.length).toBeLessThan(1000);
      const answer = run({ code });
      const slowest = await slowestProbeDuring(answer);
      const result = await answer;
      expect(result.error).toMatch(/^RangeError: (compiling the program|the program compiles)/);
      expect(result.output).toBe("");
      expect(slowest).toBeLessThan(500);
      expect(process.memoryUsage().rss).toBeLessThan(512 * MIB);
    });
  }

  test("a bomb small enough to pass the memory limit is refused by the size cap", async () => {
    // 2^17 bytes of JavaScript from 18 members: past the 64 KiB cap, well inside memory.
    const result = await run({ code: enumBomb("enum", 18) });
    expect(result.error).toBe("RangeError: the program compiles to more than 64 KiB of JavaScript");
  });

  test("an ordinary enum still compiles and runs", async () => {
    const result = await run({ code: enumBomb("enum", 8) });
    expect(result).toMatchObject({ output: "256\n", error: null });
  });

  test("checkers run under the seccomp filter and an address-space limit", async () => {
    // Replacements of the checkers the bombs killed have started and loaded by now.
    await run({ code: "console.log(1)" });
    await Bun.sleep(500);
    const checkers = readdirSync("/proc").filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return cmdline.includes(CHECKER_FILE) && cmdline.includes(TEST_ROOT);
      } catch {
        return false;
      }
    });
    expect(checkers.length).toBeGreaterThan(0);
    for (const pid of checkers) {
      expect(readFileSync(`/proc/${pid}/status`, "utf8")).toMatch(/^Seccomp:\s+2$/m);
      expect(readFileSync(`/proc/${pid}/limits`, "utf8")).toMatch(/^Max address space\s+\d+/m);
    }
  });

  test("after the bombs, the checkers were replaced and runs go on as usual", async () => {
    expect(runner.stats().checkersReplaced).toBeGreaterThan(0);
    expect(await run({ code: "console.log(1)" })).toMatchObject({ output: "1\n", error: null });
  });
});

describe.skipIf(!bwrapPath)("caps are the runner's, whatever the program replaces", () => {
  // The harness clips a name and a message to 4096 characters each with the slice it took
  // before the program ran (child/intrinsics.ts); in characters of three bytes that is still
  // past 8 KiB, which only the runner's own cap, counted in bytes, then holds.
  test("String.prototype.slice replaced and a huge error thrown: at most 8 KiB, marked", async () => {
    const result = await run({
      code: `String.prototype.slice = function () { return this; };
        String.prototype.substring = String.prototype.slice;
        throw new Error("字".repeat(200_000));`,
    });
    expect(result.error).toStartWith("Error: 字字字字");
    expect(result.error).toEndWith(ERROR_TRUNCATION_MARKER);
    expect(Buffer.byteLength(result.error ?? "")).toBeLessThanOrEqual(ERROR_MAX_BYTES);
  });

  test("a huge error name is cut as well", async () => {
    const result = await run({
      code: `String.prototype.slice = function () { return this; };
        const e = new Error("m"); e.name = "名".repeat(100_000); throw e;`,
    });
    expect(result.error).toStartWith("名名名名");
    expect(Buffer.byteLength(result.error ?? "")).toBeLessThanOrEqual(ERROR_MAX_BYTES);
    expect(result.error).toEndWith(ERROR_TRUNCATION_MARKER);
  });

  test("output stays within 64 KiB with the encoder, join and repeat replaced", async () => {
    const result = await run({
      code: `const big = "y".repeat(4096);
        TextEncoder.prototype.encode = function () { return new Uint8Array(0); };
        Array.prototype.join = function () { return big; };
        String.prototype.repeat = function () { return ""; };
        for (;;) console.log(big);`,
    });
    expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(64 * 1024);
    expect(result.error).toStartWith("OutputLimitError:");
  });
});

describe.skipIf(!bwrapPath)("crashes are explained", () => {
  const outOfMemory = /^RangeError: Out of memory/;

  test("memory exhaustion by allocation, strings, maps and typed arrays", async () => {
    for (const code of [
      "const a = []; for (;;) a.push(new Array(1e6).fill(1.5));",
      "let s = 'x'; for (;;) s += s;",
      "const m = new Map(); for (let i = 0; ; i++) m.set(i, { i });",
      "const b = []; for (;;) b.push(new Uint8Array(1 << 24));",
    ]) {
      const result = await run({ code });
      expect(result.error ?? "").toMatch(outOfMemory);
      expect(result.timedOut).toBe(false);
    }
    // Four sandboxes filled to their memory limit one after another: about a second each on a
    // quiet machine, several on a busy one; bun's 5 s default ended the test mid-way (its
    // clean-up then killed the next test's sandbox). The runner's own limits bound each run.
  }, 60_000);

  test("an error too big to report whole is clipped by the harness, whatever slice has become", async () => {
    const result = await run({
      code: `String.prototype.slice = function () { return this; };
        throw new Error("x".repeat(8e6) + "y".repeat(8e6));`,
    });
    expect(result.error).toBe(`Error: ${"x".repeat(4096)}…`);
  });

  const crashed = (exitCode: number | null, signal: string | null, killedByRunner = false) =>
    toRunResult(
      {
        output: "",
        truncated: false,
        timedOut: false,
        durationMs: 1,
        final: undefined,
        exitCode,
        signal,
        diagnostics: "",
        killedByRunner,
        finalClipped: false,
        clean: false,
      },
      { timeoutMs: 1000, memoryMb: 256, maxOutputBytes: 65536, paths: [] },
    ).error;

  test("engine aborts (as bubblewrap reports them and as signals) and the OOM killer", () => {
    for (const [code, signal] of [
      [132, null],
      [133, null],
      [134, null],
      [139, null],
      [null, "SIGILL"],
      [null, "SIGTRAP"],
      [null, "SIGABRT"],
      [null, "SIGSEGV"],
      [137, null],
    ] as const) {
      expect(crashed(code, signal) ?? "").toMatch(outOfMemory);
    }
    // A kill of the runner's own is not memory.
    expect(crashed(137, null, true)).toBe(
      "RuntimeError: the sandbox process was killed by SIGKILL",
    );
  });
});
