/**
 * The check's counting (reports.ts), on a real bun JUnit report and on the runs it must not
 * count as passed: a test task that crashed without a report, one that exited non-zero with
 * none failed in its report, a type check that failed, a task that never ran.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  countReports,
  countsLine,
  junitCounts,
  NOTES_FILE,
  REPORTS,
  reportName,
  SUMMARY_FILE,
  type Task,
  taskCounts,
  total,
} from "./reports.ts";

const root = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "check-reports-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ran = (taskId: string, exitCode: number, command = "bun test"): Task => ({
  taskId,
  task: taskId.split("#")[1] ?? "",
  command,
  execution: { startTime: 1_000, endTime: 4_000, exitCode },
});

/** Two files as bun runs them: passes, a failure, skips (skip, skipIf, todo), a failed hook. */
let report = "";
let printed = "";
beforeAll(async () => {
  const reportPath = join(dir, "report.xml");
  writeFileSync(
    join(dir, "a.test.ts"),
    `import { beforeAll, describe, expect, test } from "bun:test";
describe("a <group> & more", () => {
  test("passes", () => expect(1).toBe(1));
  test("fails", () => expect(1).toBe(2));
  test.skip("skipped", () => {});
  test.todo("to do");
  describe.skipIf(true)("skipped group", () => test("inside", () => {}));
});
describe("hooked", () => {
  beforeAll(() => { throw new Error("hook"); });
  test("under a failed hook", () => {});
});
test("top level", () => {});
`,
  );
  writeFileSync(join(dir, "b.test.ts"), `import { test } from "bun:test";\ntest("b", () => {});\n`);
  const proc = Bun.spawn(["bun", "test", "--reporter=junit", `--reporter-outfile=${reportPath}`], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  printed = await new Response(proc.stderr).text();
  await proc.exited;
  report = readFileSync(reportPath, "utf8");
});

describe("a JUnit report", () => {
  test("every case counted once: passed, failed (a failed hook too), skipped (todo too)", () => {
    expect(junitCounts(report)).toEqual({ passed: 3, failed: 2, skipped: 3 });
    // bun's own printed counts agree, todo apart (it prints todo on its own line).
    expect(printed).toMatch(/^ 3 pass$/m);
    expect(printed).toMatch(/^ 2 fail$/m);
    expect(printed).toMatch(/^ 2 skip$/m);
    expect(printed).toMatch(/^ 1 todo$/m);
  });

  test("a task's cases, and its time from turbo's summary", () => {
    expect(taskCounts(ran("@platform/admissions#test", 1), report)).toEqual({
      label: "@platform/admissions#test",
      ms: 3_000,
      passed: 3,
      failed: 2,
      skipped: 3,
      notes: [],
    });
  });
});

describe("what must not pass", () => {
  test("a test task that crashed without a report: one failure", () => {
    const row = taskCounts(ran("@platform/runner#test:backends", 134), null);
    expect(row).toMatchObject({ passed: 0, failed: 1, skipped: 0 });
    expect(row.notes).toEqual(["exited 134 without a report (runner.test-backends.xml)"]);
  });

  test("a test task that exited 0 but left no report: one failure", () => {
    expect(taskCounts(ran("//#smoke", 0), null)).toMatchObject({ passed: 0, failed: 1 });
  });

  test("a report with no failed case from a run that exited non-zero: one failure more", () => {
    const passing = `<testsuites><testsuite><testcase name="a" /></testsuite></testsuites>`;
    expect(taskCounts(ran("//#test:infra", 1), passing)).toMatchObject({ passed: 1, failed: 1 });
    expect(taskCounts(ran("//#test:infra", 0), passing)).toMatchObject({ passed: 1, failed: 0 });
  });

  test("a task that is not a test is one check, by its exit code", () => {
    const tsc = "bun ../../node_modules/typescript-7/bin/tsc -p .";
    expect(taskCounts(ran("@platform/web#typecheck", 2, tsc), null)).toMatchObject({
      passed: 0,
      failed: 1,
    });
    expect(taskCounts(ran("//#lint", 0, "biome check ."), null)).toMatchObject({
      passed: 1,
      failed: 0,
    });
  });

  test("a task turbo listed but never ran: one failure", () => {
    const never: Task = { taskId: "//#drills", task: "drills", command: "bun test" };
    expect(taskCounts(never, null)).toMatchObject({ failed: 1, notes: ["did not run"] });
  });
});

describe("a reports folder", () => {
  const folder = (files: Record<string, string>) => {
    const path = mkdtempSync(join(dir, "run-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
    return path;
  };
  const skipping = `<testsuites><testcase name="a" /><testcase name="b"><skipped /></testcase></testsuites>`;
  const summary = (tasks: Task[]) =>
    JSON.stringify({
      tasks: [...tasks, { taskId: "x#test", task: "test", command: "<NONEXISTENT>" }],
    });

  test("tasks from the summary, their reports, and the check's own rows", () => {
    const path = folder({
      [SUMMARY_FILE]: summary([
        ran("@platform/server#test", 0),
        ran("//#typecheck:tools", 0, "tsc"),
      ]),
      [reportName("@platform/server#test")]: skipping,
      [NOTES_FILE]: JSON.stringify({
        rows: [{ label: "compose", passed: 0, failed: 0, skipped: 1, notes: ["no podman"] }],
        missing: ["chromium"],
      }),
    });
    const rows = countReports(path);
    expect(rows.map((row) => row.label)).toEqual([
      "@platform/server#test",
      "//#typecheck:tools",
      "compose",
    ]);
    expect(rows[0]?.notes).toEqual(["1 skipped (chromium is not installed)"]);
    expect(countsLine(total(rows))).toBe("2 passed, 0 failed, 2 skipped");
  });

  test("with the PostgreSQL + Redis pass, the embedded pass's skips are not counted", () => {
    const path = folder({
      [SUMMARY_FILE]: summary([
        ran("@platform/server#test", 0),
        ran("@platform/server#test:backends", 0),
      ]),
      [reportName("@platform/server#test")]: skipping,
      [reportName("@platform/server#test:backends")]: skipping.replace("<skipped />", ""),
      [NOTES_FILE]: JSON.stringify({ rows: [], missing: [] }),
    });
    expect(countsLine(total(countReports(path)))).toBe("3 passed, 0 failed");
  });

  test("a run that left no summary is a failure", () => {
    const rows = countReports(folder({ [NOTES_FILE]: JSON.stringify({ rows: [], missing: [] }) }));
    expect(total(rows).failed).toBe(1);
  });
});

describe("every test script writes the report its task is counted by", () => {
  // The check's tasks are turbo.json's; a script outside them (`bun run screenshots`) is not
  // counted, so it writes no report.
  const turboTasks = JSON.parse(readFileSync(join(root, "turbo.json"), "utf8")) as {
    tasks: Record<string, unknown>;
  };
  const checked = new Set(Object.keys(turboTasks.tasks).map((id) => id.split("#").at(-1)));
  const workspaces = ["apps", "packages"].flatMap((group) =>
    readdirSync(join(root, group)).map((name) => `${group}/${name}`),
  );
  for (const path of ["", ...workspaces]) {
    const pkg = JSON.parse(readFileSync(join(root, path, "package.json"), "utf8")) as {
      name: string;
      scripts?: Record<string, string>;
    };
    for (const [task, script] of Object.entries(pkg.scripts ?? {})) {
      if (!script.includes("bun test") || !checked.has(task)) continue;
      const taskId = `${path ? pkg.name : "//"}#${task}`;
      test(taskId, () => {
        expect(script).toContain("--reporter=junit");
        // Relative to the workspace, or to the folder the script changes to first.
        const cwd = join(root, path, script.match(/^cd (\S+) &&/)?.[1] ?? "");
        const outfile = script.match(/--reporter-outfile=(\S+)/)?.[1] ?? "";
        expect(resolve(cwd, outfile)).toBe(join(REPORTS, reportName(taskId)));
      });
    }
  }
});
