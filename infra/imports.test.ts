/**
 * The tree's import rules (.dependency-cruiser.cjs at the root): no import cycle anywhere, no
 * package importing an app or a tool, no app reaching into another app's folder. Admissions'
 * own module order is its own test (apps/admissions/test/deps.test.ts).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

type Cruise = {
  summary: {
    error: number;
    violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[];
    totalCruised: number;
  };
};

const root = join(import.meta.dir, "..");

test("no import cycle, no package importing an app or a tool, no app reaching into another", async () => {
  const proc = Bun.spawn(
    [
      "bun",
      "--bun",
      join(root, "node_modules/.bin/depcruise"),
      ...["apps", "packages", "scripts", "benchmarks", "infra"],
      ...["--config", ".dependency-cruiser.cjs", "--output-type", "json"],
    ],
    { cwd: root, stdout: "pipe", stderr: "pipe" },
  );
  const [out, err] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  await proc.exited;
  expect(err).toBe("");
  const { summary } = JSON.parse(out) as Cruise;
  // Without a TypeScript it supports, dependency-cruiser reads no .ts file and finds nothing.
  expect(summary.totalCruised).toBeGreaterThan(700);
  const broken = summary.violations.map(
    (v) =>
      `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
  );
  expect(broken).toEqual([]);
  expect(summary.error).toBe(0);
}, 60_000);
