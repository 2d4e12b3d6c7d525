#!/usr/bin/env bun
/**
 * CI (.ci/run calls it once Bun is there), on a fresh machine:
 * 1. podman and what it needs, installed by the project's own set-up step (scripts/setup.ts);
 * 2. the README's commands in a clean box of plain Debian with only Bun (clean-box.ts):
 *    `bun install`, `bun run start`, `bun run check` — everything but the compose stack, which
 *    podman cannot run inside a container; the check's reports are copied out of the box;
 * 3. the compose stack built and run with podman on this machine (compose/run.ts), which
 *    leaves its own JUnit report.
 * Both are counted from their reports by the check's own counting (scripts/reports.ts): a
 * summary line per task, then one line `N passed, N failed` (`, N skipped`). Exits non-zero when
 * anything failed. `bun infra/ci.ts --count <folder>` only counts a folder of reports.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  countReports,
  format,
  partRow,
  REPORTS,
  type Row,
  reportName,
  taskCounts,
  total,
} from "../scripts/reports.ts";
import { ensure, NEEDS } from "../scripts/setup.ts";
import { cleanBox } from "./clean-box.ts";

// `bun infra/ci.ts --count <folder>`: only count a folder of reports, as CI counts the box's.
if (process.argv[2] === "--count") {
  const rows = countReports(process.argv[3] ?? REPORTS);
  console.log(format(rows));
  process.exit(total(rows).failed === 0 ? 0 : 1);
}

const started = Date.now();
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const rows: Row[] = [];
const failure = (label: string, why: string) => rows.push(partRow(label, why, { failed: 1 }));

const missing = ensure(NEEDS.compose);
if (missing.length > 0) failure("podman set-up", missing.map((need) => need.pkg).join(", "));

console.log("\n══ the README's commands in a clean Debian box");
const out = mkdtempSync(join(tmpdir(), "platform-ci-"));
try {
  const code = await cleanBox(out);
  const box = countReports(join(out, "reports"));
  rows.push(...box);
  if (code !== 0 && total(box).failed === 0) failure("clean box", `exited ${code}`);
} catch (error) {
  failure("clean box", (error as Error).message);
} finally {
  rmSync(out, { recursive: true, force: true });
}
const boxTook = Date.now() - started;

if (missing.length === 0) {
  console.log("\n══ docker-compose.yml with podman");
  const report = join(REPORTS, reportName("//#compose"));
  rmSync(report, { force: true });
  const startTime = Date.now();
  const compose = Bun.spawn(["bun", join(import.meta.dir, "compose/run.ts")], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exitCode = await compose.exited;
  const task = { taskId: "//#compose", task: "compose", command: "bun infra/compose/run.ts" };
  const execution = { startTime, endTime: Date.now(), exitCode };
  rows.push(
    taskCounts({ ...task, execution }, existsSync(report) ? readFileSync(report, "utf8") : null),
  );
}

const took = `the box ${minutes(boxTook)}, then compose ${minutes(Date.now() - started - boxTook)}`;
console.log(`\n══ CI summary (${minutes(Date.now() - started)}: ${took})\n${format(rows)}`);
process.exit(total(rows).failed === 0 ? 0 : 1);
