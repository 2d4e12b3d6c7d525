#!/usr/bin/env bun
/**
 * dist/: the client as an installable package: ES module JavaScript for any runtime (Bun, Node,
 * browsers, bundlers) and its type declarations. `bun run build`; `bun pm pack` packs it.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";

const dir = join(import.meta.dir, "..");
rmSync(join(dir, "dist"), { recursive: true, force: true });
const built = await Bun.build({
  entrypoints: [join(dir, "src/index.ts")],
  outdir: join(dir, "dist"),
  target: "node",
  format: "esm",
  external: ["openapi-fetch"],
});
if (!built.success) throw new AggregateError(built.logs, "bundling failed");
const tsc = Bun.spawnSync(["bun", "x", "tsc", "-p", "tsconfig.build.json"], {
  cwd: dir,
  stdout: "inherit",
  stderr: "inherit",
});
if (tsc.exitCode !== 0) throw new Error("declarations failed");
console.log("built dist/");
