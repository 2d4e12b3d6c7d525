import { Elysia, t } from "elysia";
import { genericProblems } from "../openapi/declare.ts";
import { HttpProblem } from "./problem.ts";

export type HealthCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: HealthCheck): Promise<"ok" | string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return "ok";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/** Every check at once; the failures as a readable map. */
export async function runChecks(checks: Record<string, HealthCheck>) {
  const names = Object.keys(checks);
  const results = await Promise.all(
    names.map((name) => runCheck(checks[name] ?? (async () => {}))),
  );
  const report = Object.fromEntries(names.map((name, i) => [name, results[i] ?? "unknown"]));
  return { healthy: results.every((result) => result === "ok"), report };
}

export const HealthReport = t.Object({
  status: t.Literal("ok"),
  service: t.String(),
  checks: t.Record(t.String(), t.String()),
});

/**
 * Liveness (the process answers) and readiness (its dependencies answer). A failing readiness
 * check is a 503 problem+json whose `checks` member says which dependency failed and why.
 * Elysia matches the same path with or without a trailing slash, so /health/ready/ works too.
 */
export function healthRoutes(service: string, checks: Record<string, HealthCheck> = {}) {
  const ready = async () => {
    const { healthy, report } = await runChecks(checks);
    if (!healthy) {
      throw new HttpProblem("NOT_READY", {
        detail: `${service} is not ready: ${Object.entries(report)
          .filter(([, result]) => result !== "ok")
          .map(([name]) => name)
          .join(", ")} failing`,
        extensions: { checks: report },
        headers: { "retry-after": "5" },
      });
    }
    return { status: "ok" as const, service, checks: report };
  };
  const live = () => ({ status: "ok" as const, service, checks: {} });
  const tags = ["health"];
  return new Elysia({ name: "health", seed: service })
    .get("/health/live", live, {
      response: HealthReport,
      detail: { tags, summary: "Liveness: the process answers" },
    })
    .get("/health/ready", ready, {
      response: { 200: HealthReport, ...genericProblems("NOT_READY") },
      detail: {
        tags,
        summary: "Readiness: every dependency answers (503 NOT_READY says which not)",
      },
    });
}
