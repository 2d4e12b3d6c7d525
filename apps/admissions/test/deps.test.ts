import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const appDir = join(import.meta.dir, "..");

type Cruise = {
  summary: {
    error: number;
    violations: { rule: { name: string }; from: string; to: string }[];
    totalCruised: number;
  };
};

describe("import rules (.dependency-cruiser.cjs)", () => {
  // The same check as `bun run deps`, so the test pass in CI enforces it. `--bun` runs the tool
  // on Bun: it refuses Node versions before 22, which some machines still have as `node`.
  test("no import cycle, no upward import, no module reaching into another's internals", async () => {
    const proc = Bun.spawn(["bun", "--bun", "depcruise", "src", "--output-type", "json"], {
      cwd: appDir,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    await proc.exited;
    expect(err).toBe("");
    const { summary } = JSON.parse(out) as Cruise;
    // Without a TypeScript it supports (below 7), dependency-cruiser reads no .ts file and finds
    // nothing wrong: so it passed, having read nothing, while the root's typescript was 7.
    expect(summary.totalCruised).toBeGreaterThan(200);
    const broken = summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(broken).toEqual([]);
    expect(summary.error).toBe(0);
  }, 30_000);
});
