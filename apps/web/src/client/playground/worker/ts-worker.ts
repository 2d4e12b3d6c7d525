/**
 * The TypeScript compiler (5.9, the `typescript` package) in a web worker: type errors and
 * completions for the one file in the editor, from a language service kept between requests so
 * each check after the first is incremental. Loaded by the page after its first paint; the
 * compiler is about 1 MB gzip, so it never delays the editor.
 */

import LIBS from "virtual:typescript-libs";
import ts from "typescript";
import type { Completion, Diagnostic, FromWorker, ToWorker } from "./protocol.ts";
import { SANDBOX_GLOBALS } from "./sandbox-globals.ts";

const FILE = "/main.ts";
const GLOBALS = "/sandbox-globals.d.ts";
const LIB_DIR = "/";
/** More would be noise in a list the user narrows by typing. */
const MAX_COMPLETIONS = 200;

// As the runner runs programs: Bun transpiles ES modules (top-level await works), strict types.
const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ["lib.es2023.d.ts"],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

let code = "";
let version = 0;
const text = (file: string): string | undefined =>
  file === FILE ? code : file === GLOBALS ? SANDBOX_GLOBALS : LIBS[file.slice(LIB_DIR.length)];

const service = ts.createLanguageService(
  {
    getScriptFileNames: () => [FILE, GLOBALS],
    getScriptVersion: (file) => (file === FILE ? String(version) : "0"),
    getScriptSnapshot: (file) => {
      const content = text(file);
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => "/",
    getCompilationSettings: () => options,
    getDefaultLibFileName: () => `${LIB_DIR}lib.es2023.d.ts`,
    fileExists: (file) => text(file) !== undefined,
    readFile: (file) => text(file),
  },
  ts.createDocumentRegistry(),
);

function update(next: string): void {
  if (next === code) return;
  code = next;
  version += 1;
}

function diagnostics(): Diagnostic[] {
  const all = [...service.getSyntacticDiagnostics(FILE), ...service.getSemanticDiagnostics(FILE)];
  const source = service.getProgram()?.getSourceFile(FILE);
  all.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  return all.map((d) => {
    const from = d.start ?? 0;
    const where = source?.getLineAndCharacterOfPosition(from) ?? { line: 0, character: 0 };
    return {
      from,
      to: from + (d.length ?? 0),
      line: where.line + 1,
      column: where.character + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
      severity: d.category === ts.DiagnosticCategory.Error ? "error" : "warning",
      code: d.code,
    };
  });
}

const KINDS: Partial<Record<string, string>> = {
  function: "function",
  "local function": "function",
  method: "method",
  property: "property",
  getter: "property",
  setter: "property",
  var: "variable",
  let: "variable",
  "local var": "variable",
  parameter: "variable",
  const: "constant",
  class: "class",
  interface: "interface",
  type: "type",
  enum: "enum",
  keyword: "keyword",
  module: "namespace",
};

function completions(position: number): { from: number; options: Completion[] } {
  const found = service.getCompletionsAtPosition(FILE, position, {});
  // Completions replace the word being typed: find where it starts.
  let from = position;
  while (from > 0 && /[\w$]/.test(code[from - 1] ?? "")) from--;
  const entries = [...(found?.entries ?? [])]
    .sort((a, b) => (a.sortText < b.sortText ? -1 : a.sortText > b.sortText ? 1 : 0))
    .slice(0, MAX_COMPLETIONS);
  return {
    from,
    options: entries.map((entry, i) => ({
      label: entry.name,
      type: KINDS[entry.kind] ?? "text",
      // Keep the compiler's order (locals and members before globals) where labels tie.
      boost: -Math.min(99, Math.floor((i * 100) / MAX_COMPLETIONS)),
    })),
  };
}

const send = (message: FromWorker) => postMessage(message);

addEventListener("message", (event: MessageEvent<ToWorker>) => {
  const request = event.data;
  try {
    update(request.code);
    if (request.kind === "check") {
      send({ kind: "diagnostics", id: request.id, diagnostics: diagnostics() });
    } else {
      send({ kind: "completions", id: request.id, ...completions(request.position) });
    }
  } catch (error) {
    send({ kind: "failed", id: request.id, message: String(error) });
  }
});

send({ kind: "ready", version: ts.version });
