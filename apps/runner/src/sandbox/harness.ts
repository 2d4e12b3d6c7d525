/**
 * The sandbox harness (child/) bundled into minified files, once per runner start: a sandbox
 * then loads one JavaScript file (main.js; a reusable one also supervisor.js) instead of
 * transpiling several TypeScript ones, which halves the harness's share of a start-up. Bun
 * parses every byte of them (about 50 µs of CPU per kilobyte), so the seccomp installer, needed
 * only without bubblewrap, is a file of its own (KERNEL_FILE).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildFilter, encodeFilter } from "./child/seccomp-bpf.ts";
import { HARNESS_FILE, KERNEL_FILE, SUPERVISOR_FILE } from "./protocol.ts";

export const CHILD_DIR = join(import.meta.dir, "child");
export { HARNESS_FILE, SUPERVISOR_FILE };
/** The checker (checker/main.ts): transpiles and checks programs outside the runner's process. */
export const CHECKER_FILE = "checker.js";
/**
 * The seccomp filter bubblewrap installs (command.ts), compiled once too. Bun is pid 1 in its
 * pid namespace, so the filter is the same for every sandbox.
 */
export const SECCOMP_FILE = "seccomp.bpf";
const SANDBOX_PID = 1;

/** Builds the harness and the filter into `outDir` (created if needed) and returns `outDir`. */
export async function buildHarness(outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true, mode: 0o700 });
  for (const [entry, file] of [
    [join(CHILD_DIR, "main.ts"), HARNESS_FILE],
    [join(CHILD_DIR, "supervisor.ts"), SUPERVISOR_FILE],
    [join(CHILD_DIR, "kernel.ts"), KERNEL_FILE],
    [join(import.meta.dir, "checker", "main.ts"), CHECKER_FILE],
  ] as const) {
    const build = await Bun.build({
      entrypoints: [entry],
      target: "bun",
      // Not `syntax`: it turns function expressions into arrows, and the lockdown's stubs for
      // constructors (new WebSocket(), new Worker()) must stay constructible to report.
      minify: { whitespace: true, identifiers: true, syntax: false },
    });
    const [bundle] = build.outputs;
    if (!build.success || !bundle) {
      throw new Error(`the sandbox harness did not build: ${build.logs.join("; ")}`);
    }
    writeFileSync(join(outDir, file), await bundle.text(), { mode: 0o600 });
  }
  const filter = encodeFilter(buildFilter({ ownPid: SANDBOX_PID, allowExecve: true }));
  writeFileSync(join(outDir, SECCOMP_FILE), filter, { mode: 0o600 });
  return outDir;
}
