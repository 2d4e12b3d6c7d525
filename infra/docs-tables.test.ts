/**
 * The tables of README.md and docs/ that come from the code (configuration, problem codes, the
 * gateway's routes) are the code's as it is now: scripts/docs-tables.ts writes them, and this
 * fails when a page was not rewritten after the code changed.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { commonEnv } from "../packages/server/src/config/env.ts";
import { problemCatalog } from "../packages/server/src/http/problem.ts";
import { APPS } from "../scripts/apps.ts";
import { generated, markdownFiles, render, root } from "../scripts/docs-tables.ts";

const read = (file: string) => readFileSync(join(root, file), "utf8");

describe("generated tables in README.md and docs/", () => {
  for (const file of markdownFiles()) {
    test(`${file} is current (regenerate: bun scripts/docs-tables.ts)`, () => {
      const text = read(file);
      expect(render(file, text)).toBe(text);
    });
  }

  test("every app's configuration and problem codes are somewhere in the docs", () => {
    const all = markdownFiles().map(read).join("\n");
    const wanted = [
      "config common",
      "errors platform",
      "routes gateway",
      ...APPS.map(({ name }) => `config ${name}`),
      ...APPS.filter(({ problems }) => Object.keys(problems).length > 0).map(
        ({ name }) => `errors ${name}`,
      ),
    ];
    for (const marker of wanted) expect(all).toContain(`<!-- generated: ${marker} -->`);
  });

  test("every variable and every problem code has a description to print", () => {
    const variables = [
      ...Object.entries(commonEnv),
      ...APPS.flatMap(({ env }) => Object.entries(env.properties)),
    ];
    const undescribed = variables.filter(([, schema]) => !schema.description).map(([n]) => n);
    expect(undescribed).toEqual([]);
    const problems = [problemCatalog, ...APPS.map(({ problems }) => problems)].flatMap(
      Object.entries,
    );
    expect(problems.filter(([, entry]) => !entry.description).map(([n]) => n)).toEqual([]);
  });

  test("a table a marker names must exist: a misspelt marker fails the rewrite", () => {
    expect(() => generated("config", "nowhere")).toThrow('no app "nowhere"');
    expect(() => generated("figures", "gateway")).toThrow("unknown generated table");
    const stale = "<!-- generated: errors bench -->\nold\n<!-- end generated -->";
    expect(render("docs/x.md", stale)).toMatch(
      /\| `BENCHMARK_FAILED` \| 500 +\| Benchmark failed \|/,
    );
    expect(render("docs/x.md", stale)).not.toContain("old");
  });
});
