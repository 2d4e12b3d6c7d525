/**
 * The sandbox harness (child/) bundled into minified files, once per runner start: a sandbox
 * then loads JavaScript already compiled instead of transpiling several TypeScript files. Bun
 * parses every byte it loads (about 50 µs of CPU per kilobyte) and compiles each function it
 * runs, so the harness proper is CommonJS with JavaScriptCore's bytecode beside it (Bun makes
 * bytecode for CommonJS only): about 1 ms of CPU less per run, a fifth of a reused sandbox's
 * (docs/performance.md). The seccomp installer, needed only without bubblewrap, is a file of
 * its own (KERNEL_FILE), outside the folder the sandbox sees (SANDBOX_FILES_DIR).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { buildFilter, encodeFilter } from "./child/seccomp-bpf.ts";
import {
  HARNESS_BUNDLE,
  HARNESS_BYTECODE_FILE,
  HARNESS_FILE,
  KERNEL_FILE,
  SANDBOX_FILES_DIR,
  SUPERVISOR_FILE,
} from "./protocol.ts";

export const CHILD_DIR = join(import.meta.dir, "child");
export { HARNESS_BUNDLE, HARNESS_BYTECODE_FILE, HARNESS_FILE, SANDBOX_FILES_DIR, SUPERVISOR_FILE };
/** The checker (checker/main.ts): transpiles and checks programs outside the runner's process. */
export const CHECKER_FILE = "checker.js";
/**
 * The seccomp filter bubblewrap installs (command.ts), compiled once too. Bun is pid 1 in its
 * pid namespace, so the filter is the same for every sandbox.
 */
export const SECCOMP_FILE = "seccomp.bpf";
const SANDBOX_PID = 1;

// Not `syntax`: it turns function expressions into arrows, and the lockdown's stubs for
// constructors (new WebSocket(), new Worker()) must stay constructible to report.
const MINIFY = { whitespace: true, identifiers: true, syntax: false };

/** The harness's entry: it loads the bundle, whose bytecode Bun then finds beside it. */
const HARNESS_ENTRY = `import.meta.require(\`\${import.meta.dir}/${HARNESS_BUNDLE}\`);\n`;

/** Bundles `entry` and writes what Bun.build gives (the file, and its bytecode if asked for). */
async function bundle(entry: string, dir: string, file: string, bytecode = false): Promise<void> {
  const build = await Bun.build({
    entrypoints: [entry],
    target: "bun",
    minify: MINIFY,
    naming: file,
    // CommonJS code is sloppy unless told: the harness is written for strict mode.
    ...(bytecode ? { format: "cjs", bytecode: true, banner: '"use strict";' } : {}),
  });
  if (!build.success || build.outputs.length === 0) {
    throw new Error(`the sandbox harness did not build: ${build.logs.join("; ")}`);
  }
  for (const output of build.outputs) {
    const bytes = new Uint8Array(await output.arrayBuffer());
    writeFileSync(join(dir, basename(output.path)), bytes, { mode: 0o600 });
  }
}

/** Builds the harness and the filter into `outDir` (created if needed) and returns `outDir`. */
export async function buildHarness(outDir: string): Promise<string> {
  const sandboxFiles = join(outDir, SANDBOX_FILES_DIR);
  mkdirSync(sandboxFiles, { recursive: true, mode: 0o700 });
  await bundle(join(CHILD_DIR, "main.ts"), sandboxFiles, HARNESS_BUNDLE, true);
  writeFileSync(join(sandboxFiles, HARNESS_FILE), HARNESS_ENTRY, { mode: 0o600 });
  await bundle(join(CHILD_DIR, "supervisor.ts"), sandboxFiles, SUPERVISOR_FILE);
  await bundle(join(CHILD_DIR, "kernel.ts"), outDir, KERNEL_FILE);
  await bundle(join(import.meta.dir, "checker", "main.ts"), outDir, CHECKER_FILE);
  const filter = encodeFilter(buildFilter({ ownPid: SANDBOX_PID, allowExecve: true }));
  writeFileSync(join(outDir, SECCOMP_FILE), filter, { mode: 0o600 });
  return outDir;
}
