/**
 * The sandbox's console (child/console.ts), in process: what each method prints. It formats with
 * the built-ins the harness took before the program ran (intrinsics.ts, test/tampering.test.ts
 * for programs that replace them); this is what it prints when nothing was replaced.
 */
import { describe, expect, test } from "bun:test";
import { sandboxConsole } from "../src/sandbox/child/console.ts";

const printed = (use: (console: Console) => void) => {
  let out = "";
  use(sandboxConsole((text) => (out += text), Bun.inspect));
  return out;
};

describe("the sandbox's console", () => {
  test("printf-style specifiers in a leading string, the rest shown after", () => {
    expect(printed((c) => c.log("%s=%d", "x", 4.7, { a: [1, 2] }))).toBe(
      "x=4 {\n  a: [ 1, 2 ],\n}\n",
    );
    expect(printed((c) => c.log("%i %f %c|%% %s", 3.9, "2.5", "css", 10n))).toBe("3 2.5 |% 10n\n");
    expect(printed((c) => c.log("%d", 5n, "%s"))).toBe("5n %s\n");
    expect(printed((c) => c.log("%s %s", "only one"))).toBe("only one %s\n");
    expect(printed((c) => c.log("%", "%%", "100%"))).toBe("% %% 100%\n");
    expect(printed((c) => c.log("a%sb%dc", "X", "12abc"))).toBe("aXbNaNc\n");
    expect(printed((c) => c.log("ab%", "x"))).toBe("ab% x\n");
  });

  test("arguments that are not strings are inspected; no argument is an empty line", () => {
    expect(printed((c) => c.log(1, "two", null, undefined, Symbol("s")))).toBe(
      "1 two null undefined Symbol(s)\n",
    );
    expect(printed((c) => c.log())).toBe("\n");
    expect(printed((c) => c.dir({ d: 1 }))).toBe("{\n  d: 1,\n}\n");
  });

  test("trace, assert, groups, counts and timers", () => {
    expect(printed((c) => c.trace("t", 1))).toBe("Trace: t 1\n");
    expect(
      printed((c) => [c.assert(true, "no"), c.assert(false), c.assert(false, "m %s", 2)]),
    ).toBe("Assertion failed\nAssertion failed : m %s 2\n");
    expect(
      printed((c) => {
        c.group("g1");
        c.log("a\nb");
        c.group();
        c.log("deep");
        c.groupEnd();
        c.groupEnd();
        c.groupEnd();
        c.log("out");
      }),
    ).toBe("g1\n  a\n  b\n    deep\nout\n");
    expect(printed((c) => [c.count(), c.count(), c.count("x"), c.countReset(), c.count()])).toBe(
      "default: 1\ndefault: 2\nx: 1\ndefault: 1\n",
    );
    expect(printed((c) => [c.timeLog("none"), c.timeEnd("none")])).toBe("");
    expect(printed((c) => [c.time("t"), c.timeEnd("t")])).toMatch(/^t: \d+\.\d{3}ms\n$/);
  });
});
