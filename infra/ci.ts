#!/usr/bin/env bun
/**
 * CI (.ci/run calls it once Bun is there), on a fresh machine:
 * 1. podman and what it needs, installed by the project's own set-up step (scripts/setup.ts);
 * 2. the README's commands in a clean box of plain Debian with only Bun (clean-box.ts):
 *    `bun install`, `bun run start`, `bun run check` — everything but the compose stack, which
 *    podman cannot run inside a container;
 * 3. the compose stack built and run with podman on this machine (compose/run.ts).
 * Ends with one line `N passed, N failed` (`, N skipped`): the box's check plus the compose smoke.
 */
import { join } from "node:path";
import { sh } from "../scripts/process.ts";
import { ensure, NEEDS } from "../scripts/setup.ts";

const started = performance.now();
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines: string[] = [];

function add(label: string, counts: typeof totals) {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  lines.push(
    `${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (at ${minutes} min)`,
  );
}

const missing = ensure(NEEDS.compose);
if (missing.length > 0) add("podman set-up", { passed: 0, failed: 1, skipped: 0 });

console.log("\n══ the README's commands in a clean Debian box");
const box = await sh(["bun", join(import.meta.dir, "clean-box.ts")], { echo: true });
const summary = [
  ...(box.stdout + box.stderr).matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm),
].at(-1);
add("clean box (bun install, bun run start, bun run check)", {
  passed: Number(summary?.[1] ?? 0),
  failed: summary ? Number(summary[2]) + (box.code !== 0 && summary[2] === "0" ? 1 : 0) : 1,
  skipped: Number(summary?.[3] ?? 0),
});

if (missing.length === 0) {
  console.log("\n══ docker-compose.yml with podman");
  const compose = await sh(["bun", join(import.meta.dir, "compose/run.ts")], { echo: true });
  const count = (word: string) =>
    Number(
      [...(compose.stdout + compose.stderr).matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, "gm"))].at(
        -1,
      )?.[1] ?? 0,
    );
  const failed = count("fail");
  add("compose stack", {
    passed: count("pass"),
    failed: failed > 0 || compose.code === 0 ? failed : 1,
    skipped: count("skip"),
  });
}

console.log(`\n══ CI summary\n${lines.join("\n")}`);
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
process.exit(totals.failed === 0 ? 0 : 1);
