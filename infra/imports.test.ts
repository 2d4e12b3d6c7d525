/**
 * Import rules, checked by dependency-cruiser: the tree's (.dependency-cruiser.cjs at the root:
 * no import cycle anywhere, no package importing an app or a tool, no app reaching into another
 * app's folder) and admissions' module order (apps/admissions/.dependency-cruiser.cjs, which
 * `bun run deps` in that app runs too).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";

type Cruise = {
  summary: {
    error: number;
    violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[];
    totalCruised: number;
  };
};

const root = join(import.meta.dir, "..");

/** What dependency-cruiser finds in `paths` from `cwd`, by the config there; its violations. */
async function cruise(cwd: string, paths: string[], atLeast: number): Promise<string[]> {
  // `--bun`: the tool refuses Node versions before 22, which some machines still have as `node`.
  const proc = Bun.spawn(
    ["bun", "--bun", join(root, "node_modules/.bin/depcruise"), ...paths, "--output-type", "json"],
    { cwd, stdout: "pipe", stderr: "pipe" },
  );
  const [out, err] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  await proc.exited;
  expect(err).toBe("");
  const { summary } = JSON.parse(out) as Cruise;
  // Without a TypeScript it supports (below 7), dependency-cruiser reads no .ts file and finds
  // nothing wrong: it once passed here having read nothing.
  expect(summary.totalCruised).toBeGreaterThan(atLeast);
  expect(summary.error).toBe(summary.violations.length);
  return summary.violations.map(
    (v) =>
      `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
  );
}

describe("import rules", () => {
  test("the tree: no import cycle, no package importing an app or a tool, no app reaching into another", async () => {
    const paths = ["apps", "packages", "scripts", "benchmarks", "infra"];
    expect(await cruise(root, paths, 700)).toEqual([]);
  }, 60_000);

  test("admissions: no upward import, no module reaching into another's internals", async () => {
    expect(await cruise(join(root, "apps/admissions"), ["src"], 150)).toEqual([]);
  }, 60_000);
});
