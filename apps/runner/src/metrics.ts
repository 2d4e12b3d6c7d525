/**
 * The runner's own metrics beside the request metrics every app has: the sandbox pool and the
 * gate (read at scrape time from the runner's stats), and every run's outcome.
 */
import { Counter, Gauge, type Metrics } from "@platform/server";
import type { RunResult } from "./modules/run/model.ts";
import type { SandboxRunner } from "./sandbox/runner.ts";

export type CountOutcome = (result: RunResult) => void;

export function runnerMetrics(metrics: Metrics, runner: SandboxRunner): CountOutcome {
  const registers = [metrics.registry];
  new Gauge({
    name: "runner_sandboxes",
    help: "Sandboxes by state: ready (single-use, warm), starting, running; kept (reusable, waiting for their client), kept_preparing (starting or rearming); and runs queued.",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const { ready, starting, running, queued, kept, keptPreparing } = runner.stats();
      this.set({ state: "ready" }, ready);
      this.set({ state: "starting" }, starting);
      this.set({ state: "running" }, running);
      this.set({ state: "queued" }, queued);
      this.set({ state: "kept" }, kept);
      this.set({ state: "kept_preparing" }, keptPreparing);
    },
  });
  // Totals the pool keeps itself, read when scraped: counters (they only rise until a restart),
  // so they end in _total and rate() works on them.
  const total = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  total(
    "runner_sandboxes_started_total",
    "Sandbox processes started since start; runs per sandbox is runner_runs_total over it.",
    () => runner.stats().started,
  );
  total(
    "runner_checkers_replaced_total",
    "Checker processes replaced since start (killed at their deadline or worn out).",
    () => runner.stats().checkersReplaced,
  );
  const outcomes = new Counter({
    name: "runner_runs_total",
    help: "Runs answered, by outcome: ok, error (the program threw), blocked, timeout.",
    labelNames: ["outcome"] as const,
    registers,
  });
  return (result) => {
    const outcome = result.timedOut
      ? "timeout"
      : result.error === null
        ? "ok"
        : result.error.startsWith("SecurityError")
          ? "blocked"
          : "error";
    outcomes.inc({ outcome });
  };
}
