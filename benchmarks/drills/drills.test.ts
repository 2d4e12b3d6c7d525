import { describe, expect, test } from "bun:test";
import { type DrillReport, runDrills } from "./drill.ts";
import { printReport } from "./report.ts";

/*
 * The failure drills held to the scale-out issue's bar (docs/reliability.md). `bun run check`
 * runs this with DRILLS=1 on its PostgreSQL + Redis pass; it takes about a minute and a half.
 */
const enabled = process.env.DRILLS === "1";
const RATE = 200;
const PHASE_MS = 6_000;
const report: DrillReport | null = enabled ? await runDrills(RATE, PHASE_MS) : null;
if (report) printReport(report);
const phases = (kind: string) => report?.phases.filter((p) => p.kind === kind) ?? [];

describe.skipIf(!enabled)("failure drills: two replicas of every app, 200 req/s", () => {
  test("the load was the load: every phase saw most of its share answered", () => {
    // Its share of its own length: a phase lasts longer than PHASE_MS while a replica rejoins.
    for (const p of report?.phases ?? []) {
      expect({ phase: p.name, load: p.answered > 0.6 * RATE * (p.durationMs / 1000) }).toEqual({
        phase: p.name,
        load: true,
      });
    }
  });

  test("no replica exited but those the drill stopped", () => {
    expect(report?.crashes.map((c) => `${c.replica}: ${c.output}`)).toEqual([]);
  });

  test("steady and settled phases: nothing failed", () => {
    for (const p of phases("steady"))
      expect({ phase: p.name, failed: p.failed }).toEqual({ phase: p.name, failed: 0 });
  });

  test("kill -9 one replica of each app: no idempotent request failed; each rejoined", () => {
    const kills = phases("kill");
    expect(kills.length).toBe(5);
    for (const p of kills) {
      expect({
        phase: p.name,
        failedIdempotent: p.failedIdempotent,
        notProblem: p.failedWithoutProblem,
      }).toEqual({
        phase: p.name,
        failedIdempotent: 0,
        notProblem: 0,
      });
      for (const [app, ms] of Object.entries(p.rejoinMs))
        expect({ app, ms }).not.toEqual({ app, ms: null });
    }
  });

  test("SIGTERM the other replica of every app under load: no request dropped; all rejoin", () => {
    const [p] = phases("sigterm");
    expect(p?.byStatus).toEqual({});
    const notBack = Object.entries(p?.rejoinMs ?? {}).filter(([, ms]) => ms === null);
    expect(notBack.map(([app]) => app)).toEqual([]);
  });

  test("Redis and PostgreSQL outages: 503 problem+json only, recovered within 5 s of their return", () => {
    const outages = [...phases("redis"), ...phases("postgres")];
    expect(outages.length).toBe(2 - (report?.skipped.length ?? 0));
    for (const p of outages) {
      const statuses = Object.keys(p.byStatus).map((key) => key.split(":")[1]);
      expect({
        phase: p.name,
        statuses: [...new Set(statuses)].filter((s) => s !== "503"),
      }).toEqual({
        phase: p.name,
        statuses: [],
      });
      expect(p.failedWithoutProblem).toBe(0);
      expect(p.lastFailureMs ?? 0).toBeLessThanOrEqual(5_000);
    }
  });

  test("every acknowledged write is there afterwards; the journeys got as far as payments", () => {
    const writes = report?.writes;
    for (const [name, { acknowledged, found }] of Object.entries(writes ?? {})) {
      expect({ name, found }).toEqual({ name, found: acknowledged });
    }
    expect(writes?.payments.acknowledged ?? 0).toBeGreaterThan(0);
    expect(writes?.documents.acknowledged ?? 0).toBeGreaterThan(0);
    expect(writes?.scores.acknowledged).toBe(10);
  });
});
