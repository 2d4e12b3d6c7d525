import { HealthReport, HttpProblem, runChecks } from "@platform/server";
import { genericProblems } from "@platform/server/openapi";
import { Elysia } from "elysia";
import type { KernelLayers } from "../../sandbox/layers.ts";
import type { SandboxRunner } from "../../sandbox/runner.ts";
import { RunnerHealth } from "./model.ts";
import { layerReport, poolCheck } from "./service.ts";

export type HealthDeps = { runner: SandboxRunner; kernel: KernelLayers };

/**
 * Liveness, and readiness that also reports every sandbox layer (the gateway's health view and
 * operators read it): 503 when sandboxes cannot be started.
 */
export const health = ({ runner, kernel }: HealthDeps) => {
  const tags = ["health"];
  return new Elysia({ name: "runner-health" })
    .get("/health/live", () => ({ status: "ok" as const, service: "runner", checks: {} }), {
      response: HealthReport,
      detail: { tags, summary: "Liveness: the process answers" },
    })
    .get(
      "/health/ready",
      async () => {
        const { healthy, report } = await runChecks({ pool: poolCheck(runner) });
        const layers = layerReport(runner, kernel);
        const { ready, starting, running, queued } = runner.stats();
        if (!healthy) {
          throw new HttpProblem("NOT_READY", {
            detail: `runner is not ready: ${report.pool}`,
            extensions: { checks: report, layers },
            headers: { "retry-after": "5" },
          });
        }
        return {
          status: "ok" as const,
          service: "runner",
          checks: report,
          layers,
          pool: { ready, starting, running, queued },
        };
      },
      {
        response: { 200: RunnerHealth, ...genericProblems("NOT_READY") },
        detail: {
          tags,
          summary:
            "Readiness, with every sandbox layer and the pool (503 NOT_READY when no sandbox starts)",
        },
      },
    );
};
