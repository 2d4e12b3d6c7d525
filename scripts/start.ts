#!/usr/bin/env bun
/**
 * `bun run start` / `bun run dev`: every app under apps/ that has that script, supervised
 * (supervise.ts): an app that dies is restarted with backoff and logged while the others keep
 * serving. Ctrl-C (SIGINT) or SIGTERM stops them all, each with that signal.
 *
 *   bun scripts/start.ts [start|dev] [--only gateway,leaderboard]
 *
 * An app's script is run as its own command (not through `bun run`), so the process the
 * supervisor watches, signals and restarts is the app itself.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type AppSpec, supervise } from "./supervise.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { only: { type: "string" } },
});
const mode = positionals[0] ?? "start";
if (mode !== "start" && mode !== "dev") {
  console.error(`usage: bun scripts/start.ts [start|dev] [--only app,app] (not "${mode}")`);
  process.exit(2);
}
const root = join(import.meta.dir, "..");
const only = values.only?.split(",").filter(Boolean);

const apps: AppSpec[] = [];
for (const name of readdirSync(join(root, "apps")).sort()) {
  if (only && !only.includes(name)) continue;
  const cwd = join(root, "apps", name);
  const pkg = (await Bun.file(join(cwd, "package.json")).json()) as {
    scripts?: Record<string, string>;
  };
  const script = pkg.scripts?.[mode];
  if (!script) continue;
  // The apps' scripts are plain commands ("bun src/index.ts"): no shell is needed.
  const [command = "bun", ...args] = script.split(/\s+/).filter(Boolean);
  apps.push({ name, cwd, cmd: [command === "bun" ? process.execPath : command, ...args] });
}
if (apps.length === 0) {
  console.error(`no app has a "${mode}" script${only ? ` among ${only.join(", ")}` : ""}`);
  process.exit(2);
}

const supervisor = supervise(apps, {});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    process.stderr.write(`supervisor | ${signal}: stopping every app\n`);
    await supervisor.stop(signal);
    process.exit(0);
  });
}
