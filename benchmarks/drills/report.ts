/** The drills' report as text: run.ts prints it, and drills.test.ts too, so CI logs carry it. */
import type { DrillReport } from "./drill.ts";

export function printReport(report: DrillReport): void {
  const ms = (value: number | null | undefined) =>
    value === null || value === undefined ? "-" : `${(value / 1000).toFixed(1)} s`;
  console.log(
    `\ndrills at ${report.rate} req/s, ${report.phaseMs / 1000} s a phase (${new Date().toISOString()})\n`,
  );
  console.log(
    `${"phase".padEnd(44)} ${"sent".padStart(5)} ${"failed".padStart(6)} ${"idem.".padStart(5)} ${"!prob".padStart(5)}  last failure  rejoined  failures by kind:status`,
  );
  for (const p of report.phases) {
    const rejoin = Object.values(p.rejoinMs);
    const slowest = rejoin.length ? Math.max(...rejoin.map((v) => v ?? Number.NaN)) : null;
    const byStatus = Object.entries(p.byStatus)
      .map(([k, v]) => `${k}×${v}`)
      .join(" ");
    console.log(
      `${p.name.padEnd(44)} ${String(p.sent).padStart(5)} ${String(p.failed).padStart(6)} ${String(p.failedIdempotent).padStart(5)} ${String(p.failedWithoutProblem).padStart(5)}  ${ms(p.lastFailureMs).padStart(12)}  ${ms(slowest).padStart(8)}  ${byStatus || "-"}`,
    );
  }
  console.log("\nupstream attempts that failed, as the gateway logged them:");
  for (const [what, n] of Object.entries(report.upstreamFailures)) console.log(`  ${what}: ${n}`);
  for (const reason of report.skipped) console.log(`skipped: ${reason}`);
  const { writes } = report;
  console.log(
    `\nscores acknowledged ${report.scoresAcknowledged}; the board's 10 best of them found in Redis: ${writes.scores.found} of ${writes.scores.acknowledged}`,
  );
  for (const name of ["registrations", "applications", "documents", "payments"] as const) {
    console.log(
      `${name} acknowledged ${writes[name].acknowledged}; found in PostgreSQL ${writes[name].found}`,
    );
  }
}
