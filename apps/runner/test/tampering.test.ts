/**
 * Programs that replace what the harness uses once they have started: getters and methods of
 * prototypes, globals, the array iterator, elements planted on prototypes. The harness takes
 * every built-in it needs before the program runs (child/intrinsics.ts), so what the runner
 * answers is still what the program wrote and threw, and a blocked capability is still named.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { RunResult } from "@platform/contracts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { ALL_LAYERS, bwrapPath, testRunner } from "./support.ts";

const TYPED_ARRAY = "Object.getPrototypeOf(Uint8Array.prototype)";
const zeroGetter = (name: string) =>
  `Object.defineProperty(${TYPED_ARRAY}, "${name}", { get() { return 0; } });`;

/** Kind of tampering, program, and what the answer must hold. */
const CASES: [string, string, Partial<RunResult>][] = [
  [
    "typed arrays' byteLength getter (the output count)",
    `console.log("a"); ${zeroGetter("byteLength")} console.log("hello");`,
    { output: "a\nhello\n", error: null },
  ],
  [
    "typed arrays' byteLength getter, then an await",
    `${zeroGetter("byteLength")} await 1; console.log("late");`,
    { output: "late\n", error: null },
  ],
  [
    "typed arrays' length getter",
    `${zeroGetter("length")} console.log("hello");`,
    { output: "hello\n", error: null },
  ],
  [
    "Reflect.get (reading the error's name and message)",
    `Reflect.get = () => "x"; throw new Error("boom");`,
    { output: "", error: "Error: boom" },
  ],
  ["the String global (a thrown primitive)", `String = () => "S"; throw 5;`, { error: "Error: 5" }],
  [
    "String.prototype.replaceAll, indexOf and slice (a group's indentation)",
    `for (const name of ["replaceAll", "indexOf", "slice"]) String.prototype[name] = () => "";
     console.group("g"); console.log("a\\nb"); console.groupEnd(); console.log("c");`,
    { output: "g\n  a\n  b\nc\n", error: null },
  ],
  [
    "Array.prototype[Symbol.iterator] (specifiers, trace, assert)",
    `Array.prototype[Symbol.iterator] = function* () {};
     console.log("%s=%d", "x", 4); console.trace("t", 1); console.assert(false, "m");`,
    { output: "x=4\nTrace: t 1\nAssertion failed : m\n", error: null },
  ],
  [
    "Array.prototype.map and join",
    `Array.prototype.map = () => []; Array.prototype.join = () => ""; console.log("x", "y");`,
    { output: "x y\n", error: null },
  ],
  [
    "Map.prototype.get and set (console.count)",
    `Map.prototype.get = () => 1e9; Map.prototype.set = function () { return this; };
     console.count(); console.count();`,
    { output: "default: 1\ndefault: 2\n", error: null },
  ],
  [
    "Math.trunc and the Number global (%d)",
    `Math.trunc = () => 7; Number = () => 9; console.log("%d", 4.7);`,
    { output: "4\n", error: null },
  ],
  [
    "an element planted on Array.prototype (console.log with no argument)",
    `Object.defineProperty(Array.prototype, "0", { get() { return "planted"; } });
     console.log(); console.log("x");`,
    { output: "\nx\n", error: null },
  ],
  [
    "an element planted on String.prototype (a % at the end of a string)",
    `Object.defineProperty(String.prototype, "3", { get() { return "s"; } }); console.log("ab%", "x");`,
    { output: "ab% x\n", error: null },
  ],
];

describe.skipIf(!bwrapPath)(
  "what the harness reports is the program's, whatever it replaces",
  () => {
    let runner: SandboxRunner;
    beforeAll(async () => {
      runner = await testRunner(ALL_LAYERS, { poolSize: 2 });
    });
    afterAll(() => runner.close());

    for (const [kind, code, expected] of CASES) {
      test(kind, async () => {
        expect(await runner.run(code, 2_000)).toMatchObject({ ...expected, timedOut: false });
      });
    }

    test("performance.now and Number.prototype.toFixed (console.time)", async () => {
      const result = await runner.run(
        `performance.now = () => NaN; Number.prototype.toFixed = () => "fixed";
       console.time(); console.timeEnd();`,
        2_000,
      );
      expect(result.output).toMatch(/^default: \d+\.\d{3}ms\n$/);
    });
  },
);

// The static check refuses `Bun` before the lockdown sees it: off here, so the lockdown alone
// answers, as it must when a program gets past the check.
describe.skipIf(!bwrapPath)("the lockdown's tripwires, whatever the program plants", () => {
  let runner: SandboxRunner;
  beforeAll(async () => {
    runner = await testRunner({ ...ALL_LAYERS, static: false }, { poolSize: 1 });
  });
  afterAll(() => runner.close());

  const blocked = {
    output: "",
    error: "SecurityError: 'Bun.stdin' is not available in the sandbox",
  };

  test("WeakMap.prototype.get (the name of the capability)", async () => {
    const code = `WeakMap.prototype.get = () => "nothing"; Bun.stdin.text();`;
    expect(await runner.run(code, 2_000)).toMatchObject(blocked);
  });

  for (const trap of ["isExtensible", "preventExtensions"]) {
    test(`a ${trap} trap planted on Object.prototype`, async () => {
      const code = `Object.prototype.${trap} = function () { console.log("planted"); return false; };
        Object.${trap}(Bun.stdin);`;
      expect(await runner.run(code, 2_000)).toMatchObject(blocked);
    });
  }
});
