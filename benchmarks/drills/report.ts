/** The drills' report as text: run.ts prints it, and drills.test.ts too, so CI logs carry it. */
import type { DrillReport } from "./drill.ts";

export function printReport(report: DrillReport): void {
  const ms = (value: number | null | undefined) =>
    value === null || value === undefined ? "-" : `${(value / 1000).toFixed(1)} s`;
  console.log(
    `\ndrills at ${report.rate} req/s, ${report.phaseMs / 1000} s a phase (${new Date().toISOString()})\n`,
  );
  console.log(
    `${"phase".padEnd(44)} ${"lasted".padStart(7)} ${"answered".padStart(8)} ${"failed".padStart(6)} ${"idem.".padStart(5)} ${"!prob".padStart(5)}  ${"p99".padStart(6)}  ${"slowest".padStart(7)}  last failure  rejoined  failures by kind:status`,
  );
  for (const p of report.phases) {
    const rejoin = Object.values(p.rejoinMs);
    const lastRejoin = rejoin.length ? Math.max(...rejoin.map((v) => v ?? Number.NaN)) : null;
    const byStatus = Object.entries(p.byStatus)
      .map(([k, v]) => `${k}×${v}`)
      .join(" ");
    console.log(
      `${p.name.padEnd(44)} ${ms(p.durationMs).padStart(7)} ${String(p.answered).padStart(8)} ${String(p.failed).padStart(6)} ${String(p.failedIdempotent).padStart(5)} ${String(p.failedWithoutProblem).padStart(5)}  ${ms(p.p99Ms).padStart(6)}  ${ms(p.slowestMs).padStart(7)}  ${ms(p.lastFailureMs).padStart(12)}  ${ms(lastRejoin).padStart(8)}  ${byStatus || "-"}`,
    );
  }
  for (const p of report.phases.filter((p) => Object.keys(p.rejoinMs).length > 1)) {
    const each = Object.entries(p.rejoinMs).map(
      ([app, v]) => `${app} ${v === null ? "not back" : ms(v)}`,
    );
    console.log(`rejoined after "${p.name}": ${each.join(", ")}`);
  }
  console.log(
    "\nupstream attempts that failed, as the gateway logged them, by the phase they fell in:",
  );
  for (const [phase, counts] of Object.entries(report.upstreamFailures)) {
    const list = Object.entries(counts).map(([what, n]) => `${what} ×${n}`);
    console.log(`  ${phase}: ${list.join(", ")}`);
  }
  const held = Object.entries(report.heldBack).map(([kind, n]) => `${kind} ${n}`);
  console.log(
    `\nslots held back (their kind at its in-flight bound; a catalog read sent): ${held.join(", ")}`,
  );
  for (const reason of report.skipped) console.log(`skipped: ${reason}`);
  for (const crash of report.crashes) {
    console.log(
      `\nCRASH: ${crash.replica} exited unasked at ${new Date(crash.at).toISOString()} (code ${crash.exitCode}, signal ${crash.signal}); it printed last:\n${crash.output}`,
    );
  }
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
