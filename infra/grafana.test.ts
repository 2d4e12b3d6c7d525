/**
 * The Grafana dashboard (infra/grafana/platform.json) only asks for metrics the apps really
 * export: every metric name in every panel's query is registered by the apps' own code.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { allMetrics } from "./all-metrics.ts";

type Dashboard = { panels: { title: string; targets: { expr: string }[] }[] };
const dashboard = (await Bun.file(
  join(import.meta.dir, "grafana/platform.json"),
).json()) as Dashboard;

/** Every metric name the apps register, taken from a registry with all of them on it. */
async function exported(): Promise<Set<string>> {
  const metrics = await allMetrics();
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (metric.type === ("histogram" as never))
      for (const s of ["_bucket", "_sum", "_count"]) names.add(metric.name + s);
  }
  return names;
}

const LABELS = new Set([
  "le",
  "service",
  "route",
  "upstream",
  "kind",
  "state",
  "outcome",
  "status",
  "code",
]);

describe("Grafana dashboard", () => {
  test("every panel queries only metrics the apps export", async () => {
    const names = await exported();
    expect(dashboard.panels.length).toBeGreaterThan(0);
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        // Names right before a selector, a range or a closing parenthesis, minus label names.
        const used = [...expr.matchAll(/\b([a-z_:][a-z0-9_:]*)(?=[{[)])/g)]
          .map((m) => m[1] ?? "")
          .filter((word) => !LABELS.has(word));
        expect(used.length, panel.title).toBeGreaterThan(0);
        for (const name of used) expect(names.has(name), `${panel.title}: ${name}`).toBe(true);
      }
    }
  });
});
