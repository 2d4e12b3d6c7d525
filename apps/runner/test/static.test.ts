import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BLOCKED_NAMES } from "../src/sandbox/child/blocked.ts";
import { checkProgram, transpileOnly } from "../src/sandbox/static-check.ts";
import { TEST_ROOT } from "./support.ts";

const blockedNames = (code: string) => {
  const verdict = checkProgram(code);
  return verdict.ok ? [] : verdict.blocked;
};

describe("static layer: what is rejected", () => {
  const rejected: [string, string, string][] = [
    ["a plain call", 'fetch("http://x")', "fetch"],
    ["a unicode-escaped name", '\\u0066etch("http://x")', "fetch"],
    ["a braced unicode escape", "\\u{65}val('1')", "eval"],
    ["the global object by name", 'globalThis["fe" + "tch"]', "globalThis"],
    ["self", "self.fetch", "self"],
    ["global", "global.process", "global"],
    ["Bun", 'Bun.file("/etc/passwd")', "Bun"],
    ["Bun.write through an alias", "const b = Bun; b.write('x', 'y')", "Bun"],
    ["process", "process.env.SECRET", "process"],
    ["Function", 'Function("return 1")()', "Function"],
    ["require", 'require("fs")', "require"],
    ["module", "module.exports = 1", "module"],
    ["exports", "exports.x = 1", "exports"],
    ["a static import", 'import fs from "node:fs"; fs;', "import"],
    ["an unused import", 'import fs from "node:fs";', "import"],
    ["a side-effect import", 'import "node:fs";', "import"],
    ["a dynamic import", 'await import("node:fs")', "import"],
    ["import(variable)", "const m = 'node:' + 'fs'; await import(m)", "import"],
    ["import.meta", "console.log(import.meta.url)", "import.meta"],
    ["a re-export", 'export * from "node:fs"', "import"],
    ["a named re-export", 'export { readFileSync } from "node:fs"', "import"],
    ["a shorthand property", "const o = { process }", "process"],
    ["an event-target alias", "addEventListener('x', () => {})", "addEventListener"],
    ["WebSocket", "new WebSocket('ws://x')", "WebSocket"],
    ["Worker", "new Worker('x')", "Worker"],
    ["ShadowRealm", "new ShadowRealm()", "ShadowRealm"],
  ];
  for (const [label, code, name] of rejected) {
    test(`${label}: ${name}`, () => {
      const verdict = checkProgram(code);
      expect(verdict.ok).toBe(false);
      if (verdict.ok) return;
      expect(verdict.name).toBe("SecurityError");
      expect(verdict.blocked).toContain(name);
      expect(verdict.message).toContain(`'${name}'`);
    });
  }

  test("every blocked global name is rejected when referenced", () => {
    for (const name of BLOCKED_NAMES) expect(blockedNames(`console.log(${name});`)).toContain(name);
  });
});

describe("static layer: what still runs", () => {
  const allowed: [string, string][] = [
    ["strings containing blocked words", 'console.log("fetch process Bun eval import")'],
    ["property names", "const o = { fetch: 1, process: 2 }; console.log(o.fetch, o['process'])"],
    ["class members", "class A { fetch() {} static process = 1 }"],
    ["labels", "process: for (;;) { break process; }"],
    ["type-only imports", 'import type { Server } from "bun"; let s: Server | null = null;'],
    ["local exports", "export const answer = 42;"],
    ["template text", `console.log(\`\${1} require\`)`],
  ];
  for (const [label, code] of allowed) {
    test(label, () => {
      const verdict = checkProgram(code);
      expect(verdict).toMatchObject({ ok: true });
    });
  }
});

describe("static layer: syntax and macros", () => {
  test("a syntax error names its line and column", () => {
    expect(checkProgram("let a = 1;\nlet b: number = ;")).toMatchObject({
      ok: false,
      name: "SyntaxError",
      message: "Unexpected ; (line 2, column 18)",
    });
  });

  test("TypeScript is transpiled even with the static layer off", () => {
    expect(transpileOnly("const n: number = 1; fetch(n)")).toMatchObject({ ok: true });
    expect(transpileOnly("const n: = 1")).toMatchObject({ ok: false, name: "SyntaxError" });
  });

  // Bun's transpiler runs macros inside the process that transpiles (the runner!) by default.
  test("a macro import is rejected and never executed in the runner", () => {
    const witness = join(TEST_ROOT, `macro-${crypto.randomUUID()}`);
    process.env.MACRO_WITNESS = witness;
    const macro = join(import.meta.dir, "fixtures", "macro.ts");
    const code = `import { leak } from ${JSON.stringify(macro)} with { type: "macro" }; console.log(leak());`;
    expect(checkProgram(code)).toMatchObject({ ok: false, blocked: ["import"] });
    expect(transpileOnly(code).ok).toBe(false);
    expect(existsSync(witness)).toBe(false);
  });
});
