import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import type { App } from "../src/app.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { ALL_LAYERS, bwrapPath, type RunBody, runRequest, TEST_ROOT, testApp } from "./support.ts";

let app: App;
let runner: SandboxRunner;

beforeAll(async () => {
  if (!bwrapPath) return; // every test here needs a sandbox: skipped below
  ({ app, runner } = await testApp(ALL_LAYERS, { poolSize: 2 }));
});
afterAll(() => runner?.close());

async function run(body: unknown): Promise<RunBody> {
  const response = await app.handle(runRequest(body));
  expect(response.status).toBe(200);
  return (await response.json()) as RunBody;
}

describe.skipIf(!bwrapPath)("POST /api/run: results (spec 2.4, 4.3)", () => {
  test("a program's console output, error null, a fractional time, not timed out", async () => {
    const result = await run({ code: 'const n: number = 6 * 7;\nconsole.log("answer", n);' });
    expect(result).toEqual({
      output: "answer 42\n",
      error: null,
      executionTime: expect.any(Number),
      timedOut: false,
    });
    expect(result.executionTime).toBeGreaterThan(0);
  });

  test("log and error lines keep the order they were written in", async () => {
    const result = await run({
      code: 'console.log("1"); console.error("2"); console.warn("3"); console.info("4");',
    });
    expect(result.output).toBe("1\n2\n3\n4\n");
  });

  test("objects are inspected as Bun's console does, format specifiers applied", async () => {
    const result = await run({ code: 'console.log("%s=%d", "x", 4.7, { a: [1, 2] });' });
    expect(result.output).toBe(`x=4 ${Bun.inspect({ a: [1, 2] })}\n`);
  });

  test("asynchronous output is kept until the event loop is empty", async () => {
    const result = await run({
      code: "setTimeout(() => console.log('later'), 30); await Promise.resolve(); console.log('now');",
    });
    expect(result.output).toBe("now\nlater\n");
    expect(result.error).toBeNull();
  });

  test("top-level await: the program runs on after it, and an error after it is reported", async () => {
    const later = await run({
      code: "console.log('a'); await new Promise((r) => setTimeout(r, 5)); console.log('b');",
    });
    expect(later).toMatchObject({ output: "a\nb\n", error: null });
    const failed = await run({ code: "console.log('a'); await 0; throw new TypeError('late');" });
    expect(failed).toMatchObject({ output: "a\n", error: "TypeError: late" });
  });

  test("a program throwing the error Bun gives for top-level await gets it back as is", async () => {
    const result = await run({ code: 'throw new TypeError("require() async module x");' });
    expect(result.error).toBe("TypeError: require() async module x");
  });

  test("leading spaces are output like anything else, and no output is empty output", async () => {
    expect((await run({ code: 'console.log("  indented")' })).output).toBe("  indented\n");
    expect(await run({ code: "const quiet = 1;" })).toMatchObject({ output: "", error: null });
  });

  test("a thrown error is Name: message, after the output so far", async () => {
    const result = await run({ code: 'console.log("before"); throw new TypeError("bad input");' });
    expect(result).toMatchObject({
      output: "before\n",
      error: "TypeError: bad input",
      timedOut: false,
    });
  });

  test("an unhandled rejection and a thrown non-error are errors too", async () => {
    expect((await run({ code: 'Promise.reject(new RangeError("late"));' })).error).toBe(
      "RangeError: late",
    );
    expect((await run({ code: 'throw "just a string";' })).error).toBe("Error: just a string");
  });

  test("a syntax error is reported with its position, and nothing runs", async () => {
    const result = await run({ code: "console.log('x');\nlet y: number = ;" });
    expect(result.output).toBe("");
    expect(result.error).toStartWith("SyntaxError: Unexpected ; (line 2");
  });

  test("the timeout field ends a busy loop: timedOut true and an error that says so", async () => {
    const result = await run({ code: "console.log('start'); for (;;) {}", timeout: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.error).toBe("TimeoutError: the run exceeded its 300 ms time limit");
    expect(result.output).toBe("start\n");
    expect(result.executionTime).toBeGreaterThanOrEqual(300);
    expect(result.executionTime).toBeLessThan(3_000);
  });

  test("without a timeout field the default (5000 ms) applies, not a shorter one", async () => {
    const slow = await run({
      code: "await new Promise((r) => setTimeout(r, 600)); console.log('ok')",
    });
    expect(slow).toMatchObject({ output: "ok\n", error: null, timedOut: false });
  });

  test("output is capped at 64 KiB, marked truncated, and the run stopped", async () => {
    const result = await run({ code: "for (;;) console.log('x'.repeat(1000));" });
    expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(64 * 1024);
    expect(result.output).toEndWith("[output truncated: 64 KiB limit reached]");
    expect(result.error).toStartWith("OutputLimitError:");
    expect(result.timedOut).toBe(false);
  });

  test("a blocked capability: 200, SecurityError naming it, empty output", async () => {
    const result = await run({ code: 'console.log("hi"); fetch("http://example.com");' });
    expect(result).toEqual({
      output: "",
      error: "SecurityError: 'fetch' is not available in the sandbox",
      executionTime: 0,
      timedOut: false,
    });
  });

  test("several blocked capabilities are all named", async () => {
    const result = await run({ code: "require('fs'); process.exit(); eval('1');" });
    expect(result.error).toBe(
      "SecurityError: 'require', 'process', 'eval' are not available in the sandbox",
    );
  });

  test("errors and output never show a host path", async () => {
    const result = await run({
      code: "const e = new Error('where'); console.log(e.stack); throw new Error(String(e.stack));",
    });
    for (const text of [result.output, result.error ?? ""]) {
      expect(text).not.toContain(TEST_ROOT);
      expect(text).not.toContain(process.execPath);
    }
    expect(result.error).toStartWith("Error: Error: where");
  });
});

describe.skipIf(!bwrapPath)("POST /api/run: validation (422) and transport errors", () => {
  const invalid: [string, unknown][] = [
    ["missing code", {}],
    ["code not a string", { code: 42 }],
    ["code over 1000 characters", { code: `console.log(1);${" ".repeat(1000)}` }],
    ["timeout 0", { code: "1", timeout: 0 }],
    ["timeout over 5000", { code: "1", timeout: 5001 }],
    ["timeout not an integer", { code: "1", timeout: 1.5 }],
    ["timeout a numeric string", { code: "1", timeout: "100" }],
    ["timeout a boolean", { code: "1", timeout: true }],
  ];
  for (const [label, body] of invalid) {
    test(`${label} → 422 problem`, async () => {
      const response = await app.handle(runRequest(body));
      expect(response.status).toBe(422);
      expect((await problemOf(response)).code).toBe("VALIDATION_FAILED");
    });
  }

  test("exactly 1000 characters and timeout 5000 are accepted", async () => {
    const code = `console.log(1);${" ".repeat(1000 - 15)}`;
    expect(code.length).toBe(1000);
    expect((await run({ code, timeout: 5000 })).output).toBe("1\n");
  });

  test("malformed JSON → 400, wrong content type → 415", async () => {
    const malformed = await app.handle(
      new Request("http://localhost/api/run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"code": ',
      }),
    );
    expect(malformed.status).toBe(400);
    const text = await app.handle(
      new Request("http://localhost/api/run", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "console.log(1)",
      }),
    );
    expect(text.status).toBe(415);
  });
});
