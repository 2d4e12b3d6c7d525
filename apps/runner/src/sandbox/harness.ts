/**
 * The sandbox harness (child/) bundled into one minified file, once per runner start: every
 * sandbox process then loads a single JavaScript file instead of transpiling several TypeScript
 * ones, which halves the harness's share of a sandbox's start-up.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const CHILD_DIR = join(import.meta.dir, "child");
export const HARNESS_FILE = "main.js";

/** Builds the harness into `outDir` (created if needed) and returns `outDir`. */
export async function buildHarness(outDir: string): Promise<string> {
  const build = await Bun.build({
    entrypoints: [join(CHILD_DIR, "main.ts")],
    target: "bun",
    // Not `syntax`: it turns function expressions into arrows, and the lockdown's stubs for
    // constructors (new WebSocket(), new Worker()) must stay constructible to report.
    minify: { whitespace: true, identifiers: true, syntax: false },
  });
  const [bundle] = build.outputs;
  if (!build.success || !bundle) {
    throw new Error(`the sandbox harness did not build: ${build.logs.join("; ")}`);
  }
  mkdirSync(outDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(outDir, HARNESS_FILE), await bundle.text(), { mode: 0o600 });
  return outDir;
}
