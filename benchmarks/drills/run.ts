#!/usr/bin/env bun
/**
 * Failure drills under steady load, real processes on loopback, on PostgreSQL + Redis (drill.ts):
 * two replicas of every app behind one gateway; kill -9 one replica of each app in turn,
 * SIGTERM the others, stop Redis, stop PostgreSQL. Prints, per phase, requests sent and failed
 * (idempotent ones apart), failures by kind and status, how long failures went on, and how
 * long restarted replicas took to rejoin; then every acknowledged write looked for.
 * `bun run check` runs the same drills with assertions (drills.test.ts).
 *
 *   bun benchmarks/drills/run.ts [--rate 200] [--phase-seconds 6]
 *
 * Needs redis-server and the machine's PostgreSQL cluster (as root, like `bun run check`).
 * Loopback only, about a minute and a half.
 */
import { parseArgs } from "node:util";
import { runDrills } from "./drill.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    "phase-seconds": { type: "string", default: "6" },
  },
});
const report = await runDrills(Number(values.rate), Number(values["phase-seconds"]) * 1000);

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
