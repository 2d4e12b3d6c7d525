#!/usr/bin/env bun
/**
 * The project's one test command (`bun run check`): one `turbo run` of the tasks turbo.json
 * defines — type checks, lint, OpenAPI lint, every workspace's tests on the embedded defaults
 * (`test`) and again on PostgreSQL + Redis (`test:backends`), the infra and benchmark-statistics
 * tests, the end-to-end smoke through the gateway on both backends, the failure drills and the
 * compose stack. This script only starts what they need and counts what they leave in reports/
 * (reports.ts): a summary line per task with its time, then one line `N passed, N failed`.
 *
 * First the set-up step (setup.ts): bubblewrap, Redis and PostgreSQL installed when missing and
 * possible. The PostgreSQL + Redis tasks run on TEST_DATABASE_URL and TEST_REDIS_URL, or on a
 * Redis and the machine's PostgreSQL cluster started here (backends.ts), handed to them as
 * CHECK_DATABASE_URL and CHECK_REDIS_URL: the embedded tasks see no TEST_* variable, whatever
 * the shell has. Without a backend that pass is skipped, with the reason, and under CI
 * (CI=true) it is a failure.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { testBackends } from "./backends.ts";
import {
  type CheckNotes,
  countReports,
  format,
  NOTES_FILE,
  partRow,
  REPORTS,
  type Row,
  SUMMARY_FILE,
  total,
} from "./reports.ts";
import { ensure, missingOf, NEEDS } from "./setup.ts";

const root = join(import.meta.dir, "..");
/** Only a guard against a hung task: the whole run takes about 12 minutes on two cores. */
const RUN_TIMEOUT_MS = 60 * 60_000;
const CI = Boolean(process.env.CI);
const rows: Row[] = [];
/** A part of the check that does not run: a failure under CI (when it must run), else a skip. */
const notRun = (label: string, why: string, mustRun = true) =>
  rows.push(partRow(label, why, CI && mustRun ? { failed: 1 } : { skipped: 1 }));

const setUp = performance.now();
ensure(NEEDS.check);
console.log(`set-up: ${((performance.now() - setUp) / 1000).toFixed(0)} s`);
const backends = await testBackends({
  TEST_REDIS_URL: process.env.TEST_REDIS_URL,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
});
process.on("exit", () => backends.stop());
const { TEST_DATABASE_URL: database, TEST_REDIS_URL: redis } = backends.env;

const tasks = ["typecheck", "typecheck:tools", "lint", "lint:openapi", "test", "test:infra"];
tasks.push("test:stats", "smoke");
if (database && redis) tasks.push("test:backends", "smoke:backends");
else notRun("PostgreSQL + Redis pass", `did not run: ${backends.skipped.join("; ")}`);

// The drills stop and start the machine's PostgreSQL cluster: only where this check started it
// (no TEST_DATABASE_URL of the user's), as root.
if (database && redis && !process.env.TEST_DATABASE_URL && process.getuid?.() === 0)
  tasks.push("drills");
else
  notRun(
    "failure drills",
    database && redis
      ? "they stop and start the machine's PostgreSQL cluster: root, without TEST_DATABASE_URL"
      : "no PostgreSQL + Redis",
  );

// docker-compose.yml built and run with podman: not inside a container (podman does not nest
// there); CHECK_COMPOSE=host says the caller runs it on the host itself (CI, after its box).
const compose = "compose stack (podman)";
if (process.env.CHECK_COMPOSE === "host")
  rows.push(partRow(compose, "run on the host by the caller (CHECK_COMPOSE=host)"));
else if (existsSync("/run/.containerenv") || existsSync("/.dockerenv"))
  notRun(
    compose,
    "this check runs inside a container, where podman cannot start containers",
    false,
  );
else {
  const missing = ensure(NEEDS.compose).map((need) => `${need.pkg} is not installed`);
  if (missing.length > 0) notRun(compose, missing.join("; "), false);
  else tasks.push("compose");
}

// The tasks' environment: no backend for the embedded tasks, whatever the shell has; the
// second pass's under names only its scripts read.
const env: Record<string, string | undefined> = { ...process.env };
for (const key of ["TEST_REDIS_URL", "TEST_DATABASE_URL", "REDIS_URL", "DATABASE_URL"])
  delete env[key];
delete env.CHECK_DATABASE_URL;
delete env.CHECK_REDIS_URL;
delete env.CHECK_WEB_REDIS_URL;
if (database && redis)
  Object.assign(env, {
    CHECK_DATABASE_URL: database,
    CHECK_REDIS_URL: redis,
    CHECK_WEB_REDIS_URL: otherRedisDatabase(redis),
  });

/**
 * The same Redis, the next logical database: the web portal's pass counts its rate limits and
 * keeps its sessions there, apart from the chain's, so it can run beside the chain (turbo.json)
 * rather than at its end, where it was the run's longest wait.
 */
function otherRedisDatabase(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${Number(parsed.pathname.slice(1) || "0") + 1}`;
  return parsed.toString();
}

// Reports of an earlier run must not be counted as this one's.
mkdirSync(REPORTS, { recursive: true });
for (const file of readdirSync(REPORTS))
  if (/\.(xml|json)$/.test(file)) rmSync(join(REPORTS, file));

/**
 * Two tasks at a time (two cores; measured in docs/containers.md § CI), never two that share
 * state: turbo.json runs the PostgreSQL + Redis tasks one after another (one Redis, whose rate
 * limits they all count), the drills after every other task. The compose stack cannot be put
 * in that order (it is in the run only where podman can run it, and turbo pulls in what a task
 * depends on), so a run with it goes one task at a time.
 */
const concurrency = tasks.includes("compose") ? 1 : 2;
const runs = join(root, ".turbo", "runs");
const began = Date.now();
const turbo = [join(root, "node_modules", ".bin", "turbo"), "run", ...tasks];
turbo.push("--continue=always", "--summarize", "--force", `--concurrency=${concurrency}`);
console.log(`\n━━ ${turbo.slice(1).join(" ")}`);
const run = Bun.spawn(turbo, { cwd: root, env, stdio: ["inherit", "inherit", "inherit"] });
// Past the guard, turbo is interrupted (it stops its tasks); what has no report then fails.
const guard = setTimeout(() => {
  console.error(`\n!! the run did not finish within ${RUN_TIMEOUT_MS / 60_000} minutes: stopped`);
  run.kill("SIGINT");
  setTimeout(() => run.kill("SIGKILL"), 30_000).unref();
}, RUN_TIMEOUT_MS);
const code = await run.exited;
clearTimeout(guard);
backends.stop();

// turbo's summary of this run: the newest written since it began.
const summaries = existsSync(runs) ? readdirSync(runs).map((file) => join(runs, file)) : [];
const summary = summaries
  .filter((path) => statSync(path).mtimeMs >= began)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (summary) copyFileSync(summary, join(REPORTS, SUMMARY_FILE));
else console.error(`!! turbo exited ${code} without a run summary`);
const missing = missingOf(NEEDS.check).map((need) => need.pkg);
writeFileSync(
  join(REPORTS, NOTES_FILE),
  `${JSON.stringify({ rows, missing } satisfies CheckNotes, null, 2)}\n`,
);

const counted = countReports(REPORTS);
const took = ((Date.now() - began) / 60_000).toFixed(1);
console.log(`\n━━ summary (the run took ${took} min; reports in reports/)\n${format(counted)}`);
process.exit(total(counted).failed === 0 ? 0 : 1);
