/**
 * The static layer: TypeScript → JavaScript with Bun's transpiler, then a real parse (acorn)
 * and a walk over every node. Rejected: imports in every form, `import.meta`, and any
 * identifier naming a blocked global or a module-system name. Property names and strings are
 * not identifiers, so `obj.fetch` or "process" still run; unicode-escaped identifiers are
 * decoded by the parser and caught like plain ones.
 */
import { type Node, parse } from "acorn";
import { full } from "acorn-walk";
import { BLOCKED_NAMES } from "./child/blocked.ts";

export type StaticVerdict =
  | { ok: true; js: string }
  | {
      ok: false;
      name: "SyntaxError" | "SecurityError" | "RangeError";
      message: string;
      blocked: string[];
    };

const transpilerOptions: Bun.TranspilerOptions = {
  loader: "ts",
  target: "bun",
  // An unused `import x from "y"` must stay visible to the check below.
  trimUnusedImports: false,
};
// Bun runs macros (`import ... with { type: "macro" }`) inside the transpiling process, i.e. the
// runner itself, unless `macro` is false, which its types do not admit.
Reflect.set(transpilerOptions, "macro", false);
const transpiler = new Bun.Transpiler(transpilerOptions);

type Position = { line: number; column: number };

function syntaxError(message: string, at?: Position): StaticVerdict {
  const where = at ? ` (line ${at.line}, column ${at.column})` : "";
  return { ok: false, name: "SyntaxError", message: `${message}${where}`, blocked: [] };
}

function transpile(code: string): { js: string } | { error: StaticVerdict } {
  try {
    return { js: transpiler.transformSync(code) };
  } catch (error) {
    if (error instanceof BuildMessage) {
      const { line, column } = error.position ?? {};
      return {
        error: syntaxError(
          error.message,
          line && column ? { line, column: column + 1 } : undefined,
        ),
      };
    }
    return { error: syntaxError(error instanceof Error ? error.message : "invalid program") };
  }
}

/** Names of what a node reaches for, if it is something the sandbox refuses. */
function blockedBy(node: Node): string | undefined {
  switch (node.type) {
    case "ImportDeclaration":
    case "ImportExpression":
      return "import";
    case "ExportAllDeclaration":
      return "import";
    case "ExportNamedDeclaration":
      return "source" in node && node.source ? "import" : undefined;
    case "MetaProperty":
      return "meta" in node && isIdentifier(node.meta, "import") ? "import.meta" : undefined;
    case "Identifier":
      return "name" in node && typeof node.name === "string" && BLOCKED_NAMES.has(node.name)
        ? node.name
        : undefined;
    default:
      return undefined;
  }
}

const isIdentifier = (node: unknown, name: string) =>
  typeof node === "object" && node !== null && "name" in node && node.name === name;

export function describeBlocked(names: readonly string[]): string {
  const quoted = names.map((name) => `'${name}'`).join(", ");
  return `${quoted} ${names.length === 1 ? "is" : "are"} not available in the sandbox`;
}

const securityError = (names: string[]): StaticVerdict => ({
  ok: false,
  name: "SecurityError",
  message: describeBlocked(names),
  blocked: names,
});

export function checkProgram(code: string): StaticVerdict {
  // Imports first, on the TypeScript itself: the transpiler drops unused and macro imports,
  // and with macros disabled it fails on a used one with a confusing message.
  try {
    // `require(...)` counts as an import to Bun; it is caught below by name, as 'require'.
    const imports = transpiler
      .scanImports(code)
      .filter((found) => !found.kind.startsWith("require"));
    if (imports.length > 0) return securityError(["import"]);
  } catch {
    // A syntax error: the transpiler below reports it with its position.
  }
  const transpiled = transpile(code);
  if ("error" in transpiled) return transpiled.error;
  let ast: Node;
  try {
    ast = parse(transpiled.js, {
      ecmaVersion: "latest",
      sourceType: "module",
      locations: true,
    });
  } catch (error) {
    return syntaxError(error instanceof Error ? error.message : "invalid program");
  }
  const blocked = new Set<string>();
  // `full` visits every node, including declarations and patterns, but never a non-computed
  // property name, member name or label: those are not references to anything.
  full(ast, (node) => {
    const name = blockedBy(node);
    if (name) blocked.add(name);
  });
  if (blocked.size > 0) return securityError([...blocked]);
  return { ok: true, js: transpiled.js };
}

/** With the static layer off (tests of the other layers), TypeScript is still transpiled. */
export function transpileOnly(code: string): StaticVerdict {
  const transpiled = transpile(code);
  return "error" in transpiled ? transpiled.error : { ok: true, js: transpiled.js };
}
