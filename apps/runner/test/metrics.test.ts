/** The runner's own metrics: every run's outcome, and the pool's state read at scrape time. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createMetrics, type Metrics } from "@platform/server";
import { metricValue } from "@platform/server/testing";
import type { App } from "../src/app.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { ALL_LAYERS, bwrapPath, runRequest, testApp } from "./support.ts";

let app: App;
let runner: SandboxRunner;
let metrics: Metrics;

beforeAll(async () => {
  if (!bwrapPath) return;
  metrics = createMetrics("runner");
  ({ app, runner } = await testApp(ALL_LAYERS, { poolSize: 1, metrics }));
});
afterAll(() => runner?.close());

describe.skipIf(!bwrapPath)("runner metrics", () => {
  test("outcomes: ok, error, blocked and timeout are counted apart", async () => {
    for (const code of [
      "console.log(1)",
      "throw new Error('no')",
      "await fetch('http://example.com')",
      "while (true) {}",
    ]) {
      const res = await app.handle(runRequest({ code, timeout: 300 }));
      expect(res.status).toBe(200);
    }
    const text = await metrics.registry.metrics();
    for (const outcome of ["ok", "error", "blocked", "timeout"])
      expect(metricValue(text, "runner_runs_total", `outcome="${outcome}"`), outcome).toBe("1");
  }, 30_000);

  test("the sandbox pool's state is read when scraped", async () => {
    // The last replacement starts on the turn of the event loop after its run answered.
    let text = await metrics.registry.metrics();
    for (let i = 0; i < 100 && metricValue(text, "runner_sandboxes_started_total") !== "4"; i++) {
      await Bun.sleep(20);
      text = await metrics.registry.metrics();
    }
    for (const state of ["ready", "starting", "running", "queued", "kept", "kept_preparing"])
      expect(metricValue(text, "runner_sandboxes", `state="${state}"`), state).toBeDefined();
    expect(metricValue(text, "runner_sandboxes", 'state="running"')).toBe("0");
    // The pool's first sandbox and the replacements of the three runs that took one (the static
    // check refused the fetch before any sandbox).
    const started = metricValue(text, "runner_sandboxes_started_total");
    expect(Number(started)).toBe(4);
  });
});
