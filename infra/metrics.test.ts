/**
 * Every metric the apps export follows Prometheus's naming rules, as `promtool check metrics`
 * (client_golang's promlint) holds them: a counter ends in `_total` and nothing else does, base
 * units spelled out (seconds, bytes), snake case, no type in the name, a help text, the
 * histogram suffixes and labels left to histograms. promtool is not a dependency (Debian ships
 * it only inside the whole `prometheus` server package), so the rules are checked here on the
 * exposition text the apps serve; where a promtool is on PATH, it is asked as well.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { allMetrics } from "./all-metrics.ts";

type Family = { name: string; type: string; help: string; labels: Set<string> };

/** The metric families of a text exposition: `# HELP`, `# TYPE` and the samples' labels. */
function families(text: string): Family[] {
  const byName = new Map<string, Family>();
  const family = (name: string) => {
    const found = byName.get(name) ?? { name, type: "untyped", help: "", labels: new Set() };
    byName.set(name, found);
    return found;
  };
  for (const line of text.split("\n")) {
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name = "", rest = ""] = meta;
      if (kind === "HELP") family(name).help = rest;
      else family(name).type = rest;
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (!sample?.[1]) continue;
    const base = [...byName.keys()].find(
      (name) =>
        sample[1] === name || /^_(bucket|sum|count)$/.test(sample[1]?.slice(name.length) ?? ""),
    );
    const labels = [...(sample[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)];
    for (const [, label] of labels) if (label) family(base ?? sample[1]).labels.add(label);
  }
  return [...byName.values()];
}

const NON_BASE_UNITS: Record<string, string> = {
  milliseconds: "seconds",
  microseconds: "seconds",
  nanoseconds: "seconds",
  minutes: "seconds",
  hours: "seconds",
  days: "seconds",
  kilobytes: "bytes",
  megabytes: "bytes",
  gigabytes: "bytes",
  bits: "bytes",
};
// promlint's own list.
const ABBREVIATED_UNITS = [
  "s",
  "ms",
  "us",
  "ns",
  "sec",
  "b",
  "kb",
  "mb",
  "gb",
  "tb",
  "pb",
  "m",
  "h",
  "d",
];
const SNAKE_CASE = /^[a-z_][a-z0-9_]*$/;

/** What promtool would say of one family; nothing when it follows every rule. */
export function problemsOf({ name, type, help, labels }: Family): string[] {
  const problems: string[] = [];
  const words = name.split("_");
  if (!help) problems.push("no help text");
  if (type === "counter" && !name.endsWith("_total"))
    problems.push('counter metrics should have "_total" suffix');
  if (type !== "counter" && name.endsWith("_total"))
    problems.push('non-counter metrics should not have "_total" suffix');
  if (type !== "histogram" && type !== "summary") {
    for (const suffix of ["_count", "_sum"]) {
      if (name.endsWith(suffix))
        problems.push(`non-histogram and non-summary metrics should not have "${suffix}" suffix`);
    }
  }
  if (type !== "histogram" && (name.endsWith("_bucket") || labels.has("le")))
    problems.push('non-histogram metrics should not have "_bucket" suffix or "le" label');
  if (type !== "summary" && labels.has("quantile"))
    problems.push('non-summary metrics should not have "quantile" label');
  if (!SNAKE_CASE.test(name)) problems.push("metric names should be written in 'snake_case'");
  for (const label of labels) {
    if (!SNAKE_CASE.test(label)) problems.push(`label ${label} should be written in 'snake_case'`);
  }
  if (name.includes(":")) problems.push("metric names should not contain ':' (recording rules)");
  for (const word of words) {
    const base = NON_BASE_UNITS[word];
    if (base) problems.push(`use base unit "${base}" instead of "${word}"`);
    if (ABBREVIATED_UNITS.includes(word))
      problems.push("metric names should not contain abbreviated units");
    if (["counter", "gauge", "histogram", "summary"].includes(word) && word !== type)
      problems.push(`metric name should not include type '${word}'`);
  }
  return problems;
}

const exposition = async () => (await allMetrics()).registry.metrics();

describe("metric names", () => {
  test("every family the apps export follows promtool's rules", async () => {
    const found = families(await exposition());
    expect(found.length).toBeGreaterThan(20);
    const named = (n: string) => found.find((f) => f.name === n);
    // The ones this rule was written for, and the shared request metrics.
    for (const name of [
      "runner_sandboxes_started_total",
      "runner_checkers_replaced_total",
      "http_requests_total",
      "http_problems_total",
    ]) {
      expect(named(name)?.type, name).toBe("counter");
    }
    for (const family of found) expect(problemsOf(family), family.name).toEqual([]);
  });

  test("the check refuses each broken name (it can fail)", () => {
    const broken = `# HELP runner_sandboxes_started Sandboxes started.
# TYPE runner_sandboxes_started counter
runner_sandboxes_started 4
# HELP queue_total Waiting now.
# TYPE queue_total gauge
queue_total 1
# TYPE latency_milliseconds histogram
latency_milliseconds_bucket{le="1"} 1
# HELP size_kb Size.
# TYPE size_kb gauge
size_kb{fileName="a"} 2
# HELP jobs_count Jobs.
# TYPE jobs_count gauge
jobs_count{le="1"} 2
`;
    const said = Object.fromEntries(families(broken).map((f) => [f.name, problemsOf(f)]));
    expect(said.runner_sandboxes_started).toEqual(['counter metrics should have "_total" suffix']);
    expect(said.queue_total).toEqual(['non-counter metrics should not have "_total" suffix']);
    expect(said.latency_milliseconds).toEqual([
      "no help text",
      'use base unit "seconds" instead of "milliseconds"',
    ]);
    expect(said.size_kb).toEqual([
      "label fileName should be written in 'snake_case'",
      "metric names should not contain abbreviated units",
    ]);
    expect(said.jobs_count).toEqual([
      'non-histogram and non-summary metrics should not have "_count" suffix',
      'non-histogram metrics should not have "_bucket" suffix or "le" label',
    ]);
  });

  const promtool = Bun.which("promtool");
  test.skipIf(!promtool)("promtool check metrics has nothing to say", async () => {
    const run = Bun.spawnSync([promtool ?? "promtool", "check", "metrics"], {
      stdin: new TextEncoder().encode(await exposition()),
      stderr: "pipe",
    });
    expect(run.stderr.toString() + run.stdout.toString()).toBe("");
    expect(run.exitCode).toBe(0);
  });
});

/** A metric named in the docs, written as code: `runner_runs_total`, `bench_queue{state}`. */
const NAMED_METRIC =
  /`((?:http|gateway|runner|bench|admissions|leaderboard|web|process|nodejs)_[a-z_]+)(?:\{[^`]*\})?`/g;

/** The metric names a page mentions that no app exports (a histogram's series count as it). */
export function unknownMetrics(page: string, exported: ReadonlySet<string>): string[] {
  return [...page.matchAll(NAMED_METRIC)]
    .map(([, name = ""]) => name)
    .filter(
      (name) => !exported.has(name) && !exported.has(name.replace(/_(bucket|sum|count)$/, "")),
    );
}

describe("the docs name only metrics the apps export", () => {
  const root = join(import.meta.dir, "..");
  test("README.md and docs/", async () => {
    const exported = new Set(families(await exposition()).map((f) => f.name));
    const pages = ["README.md", ...new Bun.Glob("docs/**/*.md").scanSync(root)];
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      expect(unknownMetrics(await Bun.file(join(root, page)).text(), exported), page).toEqual([]);
    }
  });

  test("a renamed metric left in a page is found (it can fail)", async () => {
    const exported = new Set(families(await exposition()).map((f) => f.name));
    const page =
      "`runner_sandboxes_started` and `runner_sandboxes{state}`, `http_request_duration_seconds_bucket`";
    expect(unknownMetrics(page, exported)).toEqual(["runner_sandboxes_started"]);
  });
});
