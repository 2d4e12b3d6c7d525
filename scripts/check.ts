#!/usr/bin/env bun
/**
 * The project's one test command (`bun run check`): typecheck, lint, every workspace's tests on
 * the embedded defaults and again on PostgreSQL + Redis, the compose checks, and an end-to-end
 * smoke through the real gateway. Prints each step's output, then one line `N passed, N failed`.
 *
 * First the set-up step (setup.ts): bubblewrap, Redis and PostgreSQL installed when missing
 * and possible. The PostgreSQL + Redis pass runs on TEST_DATABASE_URL and TEST_REDIS_URL, or on
 * a Redis and the machine's PostgreSQL cluster started here (backends.ts); without them it is
 * skipped, with the reason, in the summary and its last line, and under CI (CI=true) it is a
 * failure.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { testBackends } from "./backends.ts";
import { sh } from "./process.ts";
import { ensure, missingOf, NEEDS } from "./setup.ts";

const root = join(import.meta.dir, "..");
/** Longest any one step may take (the compose stack, built from nothing, is the longest). */
const STEP_TIMEOUT_MS = 15 * 60_000;
let passed = 0;
let failed = 0;
let skipped = 0;
const summary: string[] = [];

type StepResult = { passed: number; failed: number };

async function run(
  label: string,
  cmd: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined> } = {},
) {
  console.log(`\n━━ ${label}: ${cmd.join(" ")}`);
  const began = performance.now();
  // No step may hang the check: a stuck test run is killed and counted as failed.
  const ran = await sh(cmd, {
    cwd: opts.cwd ?? root,
    env: opts.env ?? process.env,
    echo: true,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const tookMs = performance.now() - began;
  return { code: ran.code, output: ran.stdout + ran.stderr, tookMs };
}

/**
 * Steps that are one check each and print little (the type checks), two at a time: the machine
 * CI gets has two cores, and much of a tsc run (reading and parsing) is one thread's work. Each
 * prints when it is done.
 */
async function stepsTwoAtATime(steps: { label: string; cmd: string[]; cwd?: string }[]) {
  const queue = [...steps];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const began = performance.now();
      const ran = await sh(next.cmd, { cwd: next.cwd ?? root, timeoutMs: STEP_TIMEOUT_MS });
      console.log(`\n━━ ${next.label}: ${next.cmd.join(" ")}\n${ran.stdout}${ran.stderr}`);
      const result = ran.code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
      record(next.label, result, performance.now() - began);
    }
  };
  await Promise.all([worker(), worker()]);
}

/** A step that is one check: it passes or fails as a whole. */
async function step(label: string, cmd: string[], opts: Parameters<typeof run>[2] = {}) {
  const { code, tookMs } = await run(label, cmd, opts);
  record(label, code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }, tookMs);
}

/**
 * A `bun test` run: every test case counts; a crash without counted failures is one failure.
 * Tests skip themselves only when something they need is missing. In the embedded pass that is
 * Redis, for tests the PostgreSQL + Redis pass runs (`final` false: not counted as skipped while
 * that pass runs); elsewhere a missing system package, named in the summary.
 */
async function testStep(
  label: string,
  cwd: string,
  env: Record<string, string | undefined>,
  final = true,
  cmd = ["bun", "test"],
) {
  const { code, output, tookMs } = await run(label, cmd, { cwd, env });
  // bun test ends with lines like " 12 pass" and " 0 fail".
  const count = (word: string) =>
    Number([...output.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, "gm"))].at(-1)?.[1] ?? 0);
  const result = { passed: count("pass"), failed: count("fail") };
  if (code !== 0 && result.failed === 0) result.failed = 1;
  record(label, result, tookMs);
  const skips = count("skip");
  if (skips === 0) return;
  const missing = missingOf(NEEDS.check).map((need) => `${need.pkg} is not installed`);
  if (!final) missing.push("Redis-only tests, which the PostgreSQL + Redis pass runs");
  if (final) skipped += skips;
  summary.push(
    `skip ${label}: ${skips} tests skipped (${missing.join("; ") || "see the log above"})`,
  );
}

/**
 * docker-compose.yml built and run with podman (infra/compose/run.ts). Not inside a container
 * (podman does not nest there); CHECK_COMPOSE=host says the caller runs it on the host itself
 * (.ci/run does, after the check in its clean box).
 */
async function composeStep() {
  const label = "compose stack (podman)";
  if (process.env.CHECK_COMPOSE === "host") {
    summary.push(`---- ${label}: run on the host by the caller (CHECK_COMPOSE=host)`);
    return;
  }
  const why =
    existsSync("/run/.containerenv") || existsSync("/.dockerenv")
      ? "this check runs inside a container, where podman cannot start containers"
      : ensure(NEEDS.compose)
          .map((need) => `${need.pkg} is not installed`)
          .join("; ");
  if (why) {
    skipped++;
    summary.push(`skip ${label}: ${why}`);
    return;
  }
  await testStep(label, root, process.env, true, ["bun", "infra/compose/run.ts"]);
}

/** A step's counts, with how long it took: CI has 20 minutes, and the summary shows where they go. */
function record(label: string, result: StepResult, tookMs?: number) {
  passed += result.passed;
  failed += result.failed;
  const took = tookMs === undefined ? "" : ` (${(tookMs / 1000).toFixed(0)} s)`;
  summary.push(
    `${result.failed === 0 ? "ok  " : "FAIL"} ${label}: ${result.passed} passed, ${result.failed} failed${took}`,
  );
}

const setUp = performance.now();
ensure(NEEDS.check);
console.log(`set-up: ${((performance.now() - setUp) / 1000).toFixed(0)} s`);
const started = await testBackends({
  TEST_REDIS_URL: process.env.TEST_REDIS_URL,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
});
process.on("exit", () => started.stop());
const backends = started.env;

const workspaces = ["packages", "apps"].flatMap((dir) =>
  readdirSync(join(root, dir))
    .map((name) => join(root, dir, name))
    .filter((path) => existsSync(join(path, "package.json"))),
);
const name = (path: string) => path.slice(root.length + 1);
const hasTests = (path: string) => existsSync(join(path, "test"));

// Embedded defaults: nothing external configured.
const embedded: Record<string, string | undefined> = { ...process.env };
for (const key of ["TEST_REDIS_URL", "TEST_DATABASE_URL", "REDIS_URL", "DATABASE_URL"])
  delete embedded[key];

/**
 * TypeScript 7 (the root's `typescript-7`, an alias of typescript@7) checks every workspace: the
 * native compiler checks the whole tree in about 20 s where 5.9 took 150. `typescript` itself
 * stays 5.9: the tools that load TypeScript's JavaScript API (dependency-cruiser,
 * openapi-typescript) need 5.x, which 7 does not have.
 */
const tsc = ["bun", join(root, "node_modules", "typescript-7", "bin", "tsc"), "-p", "."];
await stepsTwoAtATime([
  ...workspaces.map((path) => ({ label: `typecheck ${name(path)}`, cmd: tsc, cwd: path })),
  { label: "typecheck scripts, benchmarks, infra", cmd: tsc },
]);
await step("lint", ["bun", "x", "biome", "check", "--error-on-warnings", "."]);
// The OpenAPI documents the apps and the gateway serve: Redocly `recommended`, Spectral `oas`.
await step("OpenAPI lint", ["bun", "scripts/openapi-lint.ts"], { env: embedded });
await testStep("compose and container checks", join(root, "infra"), embedded);
// The benchmarks' own arithmetic (the interval their budget verdicts rest on); no load is run.
await testStep("benchmark statistics", join(root, "benchmarks"), embedded, true, [
  "bun",
  "test",
  "./stats.test.ts",
]);

/**
 * Workspaces whose test files run two at a time (`bun test --parallel=2`, one process each):
 * the runner's tests mostly wait for time limits to pass, with half the CPU idle, so its pass
 * takes 42 s instead of 63 (and still passes at 1.2 CPUs: 67 s against 72). Not admissions
 * (each process would migrate its own template database: slower) nor the gateway (its
 * end-to-end files share ports), nor the browser tests (Chromium keeps both cores busy).
 */
const PARALLEL_FILES = new Set(["apps/runner"]);
const testCommand = (path: string) =>
  PARALLEL_FILES.has(name(path)) ? ["bun", "test", "--parallel=2"] : ["bun", "test"];

const bothBackends = Boolean(backends.TEST_REDIS_URL && backends.TEST_DATABASE_URL);
for (const path of workspaces.filter(hasTests)) {
  const label = `tests ${name(path)} (SQLite + memory)`;
  await testStep(label, path, embedded, !bothBackends, testCommand(path));
}

/**
 * Workspaces whose tests use no database or shared store: once is enough (the site's stack, and
 * the client's, run on memory stores and SQLite whatever the environment says; the portal's
 * browser files, which do use admissions' database, run again below).
 */
const BACKEND_FREE = new Set(["apps/web", "packages/client"]);

if (bothBackends) {
  const env = { ...embedded, ...backends };
  for (const path of workspaces.filter((p) => hasTests(p) && !BACKEND_FREE.has(name(p)))) {
    await testStep(`tests ${name(path)} (PostgreSQL + Redis)`, path, env, true, testCommand(path));
  }
  // The site's tests use no database, but the portal's run through the admissions app: again
  // on PostgreSQL + Redis (every test/browser/portal*.test.ts: `bun test` filters by path).
  // The pages are the same as in the first pass, so their screenshots are not taken again.
  const portalEnv = { ...env, WEB_TEST_SCREENSHOTS: "off" };
  await testStep(
    "tests apps/web portal (PostgreSQL + Redis)",
    join(root, "apps/web"),
    portalEnv,
    true,
    ["bun", "test", "test/browser/portal"],
  );
} else {
  const message = `the PostgreSQL + Redis pass did not run: ${started.skipped.join("; ")}`;
  console.warn(`\n!! ${message}`);
  if (process.env.CI) record("PostgreSQL + Redis pass", { passed: 0, failed: 1 });
  else {
    skipped++;
    summary.push(`skip ${message}`);
  }
}

await testStep("smoke through the gateway (embedded defaults)", join(root, "scripts"), {
  ...embedded,
  SMOKE: "1",
});
if (backends.TEST_REDIS_URL && backends.TEST_DATABASE_URL) {
  await testStep("smoke through the gateway (PostgreSQL + Redis)", join(root, "scripts"), {
    ...embedded,
    SMOKE: "1",
    REDIS_URL: backends.TEST_REDIS_URL,
    DATABASE_URL: backends.TEST_DATABASE_URL,
  });
}

// The failure drills (benchmarks/drills): kill replicas, stop Redis and PostgreSQL under load.
// They control the machine's own PostgreSQL cluster, so they run only where this check started
// it (no TEST_DATABASE_URL of the user's), as root.
if (bothBackends && !process.env.TEST_DATABASE_URL && process.getuid?.() === 0) {
  await testStep("failure drills (PostgreSQL + Redis)", join(root, "benchmarks/drills"), {
    ...embedded,
    DRILLS: "1",
  });
} else {
  const why = bothBackends
    ? "they stop and start the machine's PostgreSQL cluster: root, without TEST_DATABASE_URL"
    : "no PostgreSQL + Redis";
  if (process.env.CI) record("failure drills", { passed: 0, failed: 1 });
  else {
    skipped++;
    summary.push(`skip failure drills: ${why}`);
  }
}

started.stop();
await composeStep();
console.log(`\n━━ summary\n${summary.join("\n")}`);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
process.exit(failed === 0 ? 0 : 1);
