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
import { printReport } from "./report.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    "phase-seconds": { type: "string", default: "6" },
  },
});
const report = await runDrills(Number(values.rate), Number(values["phase-seconds"]) * 1000);

printReport(report);
