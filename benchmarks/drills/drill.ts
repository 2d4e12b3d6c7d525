/**
 * The failure drills: the stack (stack.ts) under steady load (load.ts), and one event per phase
 * — kill -9 one replica of each app in turn (restarted after 2 s), SIGTERM the other replica of
 * every app at once (restarted), Redis stopped for 3 s, PostgreSQL stopped for 3 s, then a
 * phase with nothing stopped — and every acknowledged write looked for. Returns what it measured; run.ts prints it, drills.test.ts
 * holds it to the bar.
 */
import { type Acknowledged, type Outcome, startLoad } from "./load.ts";
import { APPS, type Crash, type Replica, type Stack, startStack } from "./stack.ts";

export type PhaseReport = {
  name: string;
  /** What the phase did: a replica killed, a dependency stopped. */
  kind: "steady" | "kill" | "sigterm" | "redis" | "postgres";
  /**
   * Requests answered (or failed) during the phase. A request counts where its answer came: one
   * sent just before a kill and broken by it is the kill's failure, not the phase's before.
   */
  answered: number;
  failed: number;
  /** Failed GETs and POSTs with an Idempotency-Key: the gateway may replay them. */
  failedIdempotent: number;
  /** Failures that were not a problem+json answer (a 500 page, a dropped connection). */
  failedWithoutProblem: number;
  byStatus: Record<string, number>;
  /** From the event (or, for an outage, from the dependency's return) to the last failure. */
  lastFailureMs: number | null;
  /** Restarted replicas: time from their restart to the gateway listing them up again. */
  rejoinMs: Record<string, number | null>;
  /** How long the phase lasted (longer than the drill's phase length while a replica rejoins). */
  durationMs: number;
  /** The 99th percentile and the slowest of those answers, from sending to answer. */
  p99Ms: number;
  slowestMs: number;
};

export type Found = { acknowledged: number; found: number };
export type DrillReport = {
  rate: number;
  phaseMs: number;
  phases: PhaseReport[];
  skipped: string[];
  /** Scores: the board keeps 10, so `writes.scores` is the 10 best acknowledged, found or not. */
  scoresAcknowledged: number;
  /** Slots of a costly kind that read the catalog instead, their kind being at its bound. */
  heldBack: Record<string, number>;
  /** Replicas that exited while the drill was not stopping them. */
  crashes: Crash[];
  /** What the gateway logged about each failed upstream attempt: phase › `upstream kind reason` › count. */
  upstreamFailures: Record<string, Record<string, number>>;
  writes: Record<keyof Acknowledged, Found>;
};

type HealthBody = { upstreams: Record<string, { replicas: { replica: number; state: string }[] }> };

async function replicaUp(stack: Stack, r: Replica): Promise<boolean> {
  try {
    const res = await fetch(`${stack.base}/gateway/health`);
    const body = (await res.json()) as HealthBody;
    return body.upstreams[r.app]?.replicas.find((x) => x.replica === r.index)?.state === "up";
  } catch {
    return false;
  }
}

/**
 * Restarts a stopped replica and waits (up to 90 s) for the gateway to route to it again. How
 * fast is not the bar (docs/reliability.md): a start-up on a busy 2-core machine has taken
 * over 30 s (the runner's sandbox pool, the bench's warm-up runs).
 */
async function restart(stack: Stack, r: Replica): Promise<number | null> {
  stack.startReplica(r);
  const started = Date.now();
  while (Date.now() - started < 90_000) {
    if (await replicaUp(stack, r)) return Date.now() - started;
    // As often as the gateway checks: each look asks every replica's probe once more.
    await Bun.sleep(500);
  }
  return null;
}

async function openIntake(stack: Stack): Promise<string> {
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(stack.base + path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; accessToken: string };
  };
  const { accessToken } = await call("/api/v1/auth/login/", stack.admin);
  const program = await call(
    "/api/v1/catalog/programs/",
    {
      code: `DRILL-${process.pid}`,
      name: "Drill Studies",
      level: "master",
      department: "Reliability",
      durationMonths: 12,
      requiredDocuments: ["transcript"],
      applicationFee: { amount: 5000, currency: "EUR" },
    },
    accessToken,
  );
  const now = Date.now();
  const intake = await call(
    `/api/v1/catalog/programs/${program.id}/intakes/`,
    {
      term: "Autumn",
      opensAt: new Date(now - 86_400_000).toISOString(),
      deadline: new Date(now + 30 * 86_400_000).toISOString(),
      capacity: 100_000,
    },
    accessToken,
  );
  return intake.id;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function summarise(outcomes: Outcome[], from: number, to: number, since: number) {
  const answeredAt = (o: Outcome) => o.at + o.ms;
  const inPhase = outcomes.filter((o) => answeredAt(o) >= from && answeredAt(o) < to);
  const failed = inPhase.filter((o) => o.status === 0 || o.status >= 500);
  const byStatus: Record<string, number> = {};
  for (const o of failed) {
    const key = `${o.kind}:${o.status || "conn"}`;
    byStatus[key] = (byStatus[key] ?? 0) + 1;
  }
  const last = failed.at(-1);
  const latencies = inPhase.map((o) => o.ms).sort((a, b) => a - b);
  return {
    answered: inPhase.length,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    slowestMs: latencies.at(-1) ?? 0,
    failed: failed.length,
    failedIdempotent: failed.filter((o) => o.idempotent).length,
    failedWithoutProblem: failed.filter((o) => !o.problem).length,
    byStatus,
    lastFailureMs: last ? Math.max(0, answeredAt(last) - since) : null,
  };
}

export async function runDrills(rate = 200, phaseMs = 6_000): Promise<DrillReport> {
  const began = Date.now();
  const stack = await startStack();
  console.error(`drills: the stack is up after ${seconds(Date.now() - began)}`);
  try {
    const load = startLoad(stack.base, rate, await openIntake(stack));
    type Window = Pick<PhaseReport, "name" | "kind" | "rejoinMs"> & {
      start: number;
      end: number;
      since: number;
    };
    const windows: Window[] = [];
    const skipped: string[] = [];
    /** One phase: half a second of load, the event, then load until phaseMs has passed. */
    async function phase(
      name: string,
      kind: PhaseReport["kind"],
      act: () => Promise<{ since?: number; rejoinMs?: PhaseReport["rejoinMs"] }>,
    ) {
      const start = Date.now();
      await Bun.sleep(500);
      const event = Date.now();
      const { since = event, rejoinMs = {} } = await act();
      await Bun.sleep(Math.max(0, phaseMs - (Date.now() - start)));
      const end = Date.now();
      windows.push({ name, kind, rejoinMs, start, end, since });
      // Progress as it goes, so a drill that drags in CI says where.
      const answered = load.outcomes.filter((o) => o.at + o.ms >= start).length;
      console.error(
        `drills: ${name}: ${seconds(end - start)}, ${answered} answered, ${load.inFlight()} in flight (at ${seconds(end - began)})`,
      );
    }
    const replica = (app: string, index: number) => {
      const r = stack.replicas.find((x) => x.app === app && x.index === index);
      if (!r) throw new Error(`no replica ${app} ${index}`);
      return r;
    };

    await phase("steady", "steady", async () => ({}));
    for (const app of APPS) {
      await phase(`kill -9 ${app} replica 1, restarted after 2 s`, "kill", async () => {
        const r = replica(app, 1);
        await stack.stopReplica(r, "SIGKILL");
        await Bun.sleep(2000);
        return { rejoinMs: { [app]: await restart(stack, r) } };
      });
    }
    await phase("SIGTERM replica 2 of every app, restarted", "sigterm", async () => {
      const twos = APPS.map((app) => replica(app, 2));
      await Promise.all(twos.map((r) => stack.stopReplica(r, "SIGTERM")));
      const rejoined = await Promise.all(twos.map((r) => restart(stack, r)));
      return { rejoinMs: Object.fromEntries(twos.map((r, i) => [r.app, rejoined[i] ?? null])) };
    });
    await phase("Redis stopped for 3 s", "redis", async () => {
      await stack.stopRedis();
      await Bun.sleep(3000);
      stack.startRedis();
      return { since: Date.now() };
    });
    if (stack.canStopPostgres) {
      await phase("PostgreSQL stopped for 3 s", "postgres", async () => {
        await stack.stopPostgres();
        await Bun.sleep(3000);
        await stack.startPostgres();
        return { since: Date.now() };
      });
    } else {
      skipped.push("PostgreSQL outage: TEST_DATABASE_URL is not this machine's cluster");
    }
    await phase("settled: nothing stopped", "steady", async () => ({}));
    await load.stop();
    // Summed up once every answer is in (the last phase takes those that came as the load
    // stopped).
    const phases = windows.map(({ start, end, since, ...window }, i) => ({
      ...window,
      durationMs: end - start,
      ...summarise(load.outcomes, start, i === windows.length - 1 ? Infinity : end, since),
    }));
    const writes = verify(stack, load.acked);
    const upstreamFailures: DrillReport["upstreamFailures"] = {};
    for (const { at, what } of await stack.upstreamFailures()) {
      const phase = windows.findLast((w) => w.start <= at)?.name ?? "before the first phase";
      const counts = upstreamFailures[phase] ?? {};
      counts[what] = (counts[what] ?? 0) + 1;
      upstreamFailures[phase] = counts;
    }
    return {
      rate,
      phaseMs,
      phases,
      skipped,
      scoresAcknowledged: load.acked.scores.length,
      crashes: [...stack.crashes],
      heldBack: { ...load.heldBack },
      upstreamFailures,
      writes,
    };
  } finally {
    await stack.stop();
  }
}

/** Every acknowledged write, looked for where it must be. */
function verify(stack: Stack, acked: Acknowledged): DrillReport["writes"] {
  const inTable = (table: string, column: string, values: string[]) => {
    const present = new Set(stack.psql(`SELECT ${column} FROM ${table}`));
    return { acknowledged: values.length, found: values.filter((v) => present.has(v)).length };
  };
  // The board keeps its 10 best entries (by design): they must be the 10 best acknowledged
  // ones (scores rise with the request number), read from Redis itself.
  const onBoard = new Set(
    stack
      .redisHashValues("leaderboard:rank:scores:payload")
      .map((line) => (JSON.parse(line) as { playerName: string }).playerName),
  );
  const best = [...acked.scores]
    .sort((a, b) => Number(b.slice(6)) - Number(a.slice(6)))
    .slice(0, 10);
  return {
    scores: { acknowledged: best.length, found: best.filter((n) => onBoard.has(n)).length },
    registrations: inTable("users", "email", acked.registrations),
    applications: inTable("applications", "id", acked.applications),
    documents: inTable("documents", "id", acked.documents),
    payments: inTable("payments", "id", [...new Set(acked.payments)]),
  };
}
