import { describe, expect, test } from "bun:test";
import { formatMicros, formatOps, niceCeiling, opsPerSecond } from "../src/client/bench/format.ts";
import { readShared, shareFragment } from "../src/client/playground/share.ts";
import { blockedCapability } from "../src/client/playground/text.ts";
import type { ApiFailure } from "../src/client/shared/api.ts";
import { describeProblem } from "../src/client/shared/problem-text.ts";

describe("times in the unit that fits", () => {
  test.each([
    [0.412, "412 ns"],
    [0.0005, "0.5 ns"],
    [1, "1 µs"],
    [8.5417, "8.54 µs"],
    [999.4, "999 µs"],
    [85_417, "85.4 ms"],
    [1_234_567, "1.23 s"],
    [0, "0 µs"],
  ])("%p µs is %s", (us, text) => expect(formatMicros(us)).toBe(text));

  test("operations per second from the total and the iterations", () => {
    expect(opsPerSecond(85_417, 10_000)).toBeCloseTo(117_072.71, 1);
    expect(formatOps(117_072.71)).toBe("117,073");
    expect(opsPerSecond(0, 10_000)).toBe(0);
  });

  test("an axis's top is a round number at or above the tallest bar", () => {
    expect([0, 0.8, 1, 7.1, 10.2, 85_417].map(niceCeiling)).toEqual([1, 1, 1, 10, 20, 100_000]);
  });
});

const failure = (
  problem: Partial<ApiFailure["problem"]>,
  status = 422,
  retryAfter: number | null = null,
): ApiFailure => ({
  ok: false,
  status,
  retryAfter,
  rateLimit: null,
  problem: {
    type: "about:blank",
    title: "T",
    status,
    detail: "D",
    code: "X",
    requestId: "r",
    ...problem,
  },
});

describe("errors in words", () => {
  test("a validation error names the field in words, never the schema's pointer or message", () => {
    const text = describeProblem(
      failure({
        code: "VALIDATION_FAILED",
        errors: [
          { path: "/body/code", message: "Expected string length less or equal to 1000" },
          { path: "/body/timeout", message: "Expected integer" },
          { path: "/body/playerName", message: "must not be empty or only whitespace" },
          { path: "/body/playerName", message: "Expected string length less or equal to 1024" },
          { path: "/body/other", message: "Expected boolean" },
        ],
      }),
    );
    expect(text.fields.map((f) => f.text)).toEqual([
      "The program is longer than 1000 characters: shorten it to run it.",
      "The timeout must be a whole number from 1 to 5000 ms.",
      "Your name must not be empty or only whitespace.",
      "Your name must be 1 to 32 characters.",
      "A value sent is not accepted.",
    ]);
    for (const field of text.fields) expect(field.text).not.toMatch(/Expected|\/body/);
  });

  test("each code the site's APIs answer has words; an unknown one says its status", () => {
    for (const code of [
      "NETWORK_ERROR",
      "RATE_LIMITED",
      "RUNNER_BUSY",
      "SANDBOX_UNAVAILABLE",
      "CLIENT_RUNS_EXCEEDED",
      "SANDBOX_TIME_EXCEEDED",
      "BENCHMARK_FAILED",
      "SERVICE_UNAVAILABLE",
      "BAD_GATEWAY",
      "GATEWAY_TIMEOUT",
      "INTERNAL_ERROR",
    ]) {
      expect(describeProblem(failure({ code, detail: "schema words" })).summary).not.toContain(
        "schema words",
      );
    }
    expect(describeProblem(failure({ code: "NEW_CODE" }, 409)).summary).toBe(
      "The server refused the request (HTTP 409).",
    );
    expect(describeProblem(failure({ code: "NEW_CODE" }, 503)).summary).toBe(
      "Something went wrong on the server.",
    );
    expect(describeProblem(failure({ code: "RATE_LIMITED" }, 429, 1)).retry).toBe(
      "You can try again in 1 second.",
    );
  });

  test("a blocked capability is named in words", () => {
    expect(blockedCapability("SecurityError: 'fetch' is not available in the sandbox")).toBe(
      "the network (fetch)",
    );
    expect(blockedCapability("SecurityError: 'process', 'Thing' are not available")).toBe(
      "the host process (process), 'Thing'",
    );
    expect(blockedCapability("TypeError: x")).toBeNull();
    expect(blockedCapability(null)).toBeNull();
  });
});

describe("the share link", () => {
  test("a program goes into the fragment and comes back the same", async () => {
    const code = 'const s: string = "héllo ✓";\nconsole.log(s.repeat(3));';
    const fragment = await shareFragment(code);
    expect(fragment).toMatch(/^#code=[\w-]+$/);
    expect(await readShared(fragment)).toEqual({ ok: true, code });
  });

  test("no fragment is nothing to restore; a damaged one is said to be", async () => {
    expect(await readShared("")).toBeNull();
    expect(await readShared("#other")).toBeNull();
    expect(await readShared("#code=not-deflate")).toEqual({ ok: false });
    const good = await shareFragment("console.log(1)");
    expect(await readShared(good.slice(0, -3))).toEqual({ ok: false });
  });

  test("a link that inflates past 64 KiB is refused, not inflated", async () => {
    const bomb = await shareFragment("x".repeat(1_000_000));
    expect(bomb.length).toBeLessThan(2_000);
    expect(await readShared(bomb)).toEqual({ ok: false });
  });
});
