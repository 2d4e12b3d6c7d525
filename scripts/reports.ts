/**
 * The check's counts, read from what its run leaves in reports/, never from printed output:
 * - turbo-run.json, turbo's run summary (`--summarize`): every task, its command, exit code, times;
 * - <workspace>.<task>.xml, the JUnit report each test task writes (`bun test --reporter=junit`);
 * - check.json, what the check decided itself: the parts it skipped (and why), or failed for
 *   not running under CI, and which system packages were missing.
 * check.ts counts its own run with this; CI (infra/ci.ts) counts the reports it copies out of
 * the clean box with it, and adds the compose stack it runs on the host.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type Counts = { passed: number; failed: number; skipped: number };
/** One line of the summary: a task, or a part the check skipped or failed itself. */
export type Row = Counts & { label: string; ms?: number; notes: string[] };
/** A task as turbo's run summary gives it (`execution` is absent for a task that never ran). */
export type Task = {
  taskId: string;
  task: string;
  command: string;
  execution?: { startTime: number; endTime: number; exitCode?: number | null; error?: string };
};
/** What check.ts writes beside the reports (check.json). */
export type CheckNotes = { rows: Row[]; missing: string[] };

export const REPORTS = join(import.meta.dir, "..", "reports");
export const SUMMARY_FILE = "turbo-run.json";
export const NOTES_FILE = "check.json";

/**
 * The JUnit report a task writes, by a rule its script follows: the workspace's folder name
 * (`root` for the root's tasks), a dot, the task with `:` as `-`:
 * `@platform/admissions#test:backends` → `admissions.test-backends.xml`. reports.test.ts holds
 * every script to it.
 */
export function reportName(taskId: string): string {
  const [pkg = "", task = ""] = taskId.split("#");
  const name = pkg === "//" ? "root" : pkg.replace(/^@platform\//, "");
  return `${name}.${task.replaceAll(":", "-")}.xml`;
}

/** A test task is one that runs `bun test` (or, like the compose stack, leaves a report). */
const isTestCommand = (command: string) => /\bbun test\b/.test(command);

/**
 * Test cases in a bun JUnit report: failed (a `<failure>` or `<error>` inside), skipped
 * (`<skipped>`: skip, skipIf and todo), the rest passed. A hook that fails is one failed case
 * there. A file that fails to load is not in the report at all: its run exits non-zero, which
 * taskCounts counts.
 */
export function junitCounts(xml: string): Counts {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  // A case is `<testcase …/>` or `<testcase …>…</testcase>`; its children say how it ended.
  for (const [, selfClosed, body = ""] of xml.matchAll(
    /<testcase\b[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g,
  )) {
    if (selfClosed !== "/>" && /<(failure|error)\b/.test(body)) counts.failed++;
    else if (selfClosed !== "/>" && /<skipped\b/.test(body)) counts.skipped++;
    else counts.passed++;
  }
  return counts;
}

/**
 * One task's counts. With a report: its cases, and one failure more when the task exited
 * non-zero yet the report shows none (a file that did not load, an error between tests). A test
 * task without a report (it crashed, or never ran) is one failure. Any other task (type check,
 * lint, a compose run that stopped before its tests) is one check, passed or failed by its exit
 * code.
 */
export function taskCounts(task: Task, report: string | null): Row {
  const ms = task.execution ? task.execution.endTime - task.execution.startTime : undefined;
  const code = task.execution?.exitCode ?? null;
  const row: Row = { label: task.taskId, ms, passed: 0, failed: 0, skipped: 0, notes: [] };
  if (!task.execution) {
    row.failed = 1;
    row.notes.push("did not run");
  } else if (report !== null) {
    Object.assign(row, junitCounts(report));
    if (code !== 0 && row.failed === 0) {
      row.failed = 1;
      row.notes.push(`exited ${code ?? "on a signal"} with no failed case in its report`);
    }
  } else if (isTestCommand(task.command)) {
    row.failed = 1;
    row.notes.push(`exited ${code ?? "on a signal"} without a report (${reportName(task.taskId)})`);
  } else if (code === 0) row.passed = 1;
  else row.failed = 1;
  return row;
}

/** A row the check or CI writes itself: a part that did not run, or failed before any task. */
export const partRow = (label: string, why: string, counts: Partial<Counts> = {}): Row => ({
  label,
  passed: 0,
  failed: 0,
  skipped: 0,
  notes: [why],
  ...counts,
});

const readIf = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

/** The tasks of a run summary that ran a script (turbo lists a workspace without one too). */
export function tasksOf(summary: { tasks: Task[] }): Task[] {
  return summary.tasks
    .filter((task) => task.command !== "<NONEXISTENT>")
    .sort((a, b) => (a.execution?.startTime ?? 0) - (b.execution?.startTime ?? 0));
}

/**
 * Every row of a check's run, from a reports folder. A test skipped in the embedded pass (a
 * workspace's `test`) is not counted as skipped when the run also has the PostgreSQL + Redis
 * pass (`test:backends`): those are the tests that need Redis, and that pass runs them.
 */
export function countReports(dir: string): Row[] {
  const notes = JSON.parse(readIf(join(dir, NOTES_FILE)) ?? "null") as CheckNotes | null;
  const summary = readIf(join(dir, SUMMARY_FILE));
  if (!notes || !summary) {
    const missing = [NOTES_FILE, SUMMARY_FILE].filter((file) => !existsSync(join(dir, file)));
    return [
      {
        label: "bun run check",
        passed: 0,
        failed: 1,
        skipped: 0,
        notes: [`no ${missing.join(", ")}`],
      },
      ...(notes?.rows ?? []),
    ];
  }
  const tasks = tasksOf(JSON.parse(summary) as { tasks: Task[] });
  const secondPass = tasks.some((task) => task.task === "test:backends");
  const rows = tasks.map((task) => {
    const row = taskCounts(task, readIf(join(dir, reportName(task.taskId))));
    if (row.skipped === 0) return row;
    if (secondPass && task.task === "test") {
      row.notes.push(`${row.skipped} skipped: need Redis, run by the PostgreSQL + Redis pass`);
      row.skipped = 0;
    } else {
      const why = notes.missing.map((pkg) => `${pkg} is not installed`).join("; ");
      row.notes.push(`${row.skipped} skipped${why ? ` (${why})` : ""}`);
    }
    return row;
  });
  return [...rows, ...notes.rows];
}

export function total(rows: Row[]): Counts {
  return rows.reduce(
    (sum, row) => ({
      passed: sum.passed + row.passed,
      failed: sum.failed + row.failed,
      skipped: sum.skipped + row.skipped,
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
}

/** The summary: a line per row (its time, what was skipped and why), then the one line. */
export function format(rows: Row[]): string {
  const lines = rows.map((row) => {
    const notes = row.notes.join("; ");
    if (row.passed + row.failed === 0)
      return `${row.skipped > 0 ? "skip" : "----"} ${row.label}: ${notes}`;
    const mark = row.failed > 0 ? "FAIL" : "ok  ";
    const took = row.ms === undefined ? "" : ` (${(row.ms / 1000).toFixed(0)} s)`;
    return `${mark} ${row.label}: ${row.passed} passed, ${row.failed} failed${took}${notes ? ` — ${notes}` : ""}`;
  });
  return `${lines.join("\n")}\n${countsLine(total(rows))}`;
}

/** The one line a check and CI end with: `N passed, N failed` (`, N skipped` when any were). */
export function countsLine(sum: Counts): string {
  return `${sum.passed} passed, ${sum.failed} failed${sum.skipped > 0 ? `, ${sum.skipped} skipped` : ""}`;
}
