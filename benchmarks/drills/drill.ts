/**
 * The failure drills: the stack (stack.ts) under steady load (load.ts), and one event per phase
 * — kill -9 one replica of each app in turn (restarted after 2 s), SIGTERM the other replica of
 * every app at once (restarted), Redis stopped for 3 s, PostgreSQL stopped for 3 s, then a
 * phase with nothing stopped — and every acknowledged write looked for (writes.ts). Returns
 * what it measured; run.ts prints it, drills.test.ts holds it to the bar.
 */
import { startLoad } from "./load.ts";
import { type PhaseReport, seconds, summarise } from "./phases.ts";
import { APPS, type Crash, lastOutput, type Replica, type Stack, startStack } from "./stack.ts";
import { openIntake, verify, type Writes } from "./writes.ts";

export type { PhaseReport } from "./phases.ts";

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
  writes: Writes;
};

type ReplicaView = {
  replica: number;
  state: string;
  readiness: { status: string; reason?: string; httpStatus?: number; latencyMs: number };
};
type HealthBody = { upstreams: Record<string, { replicas: ReplicaView[] }> };

/** How the gateway sees each replica, by `app index`. */
async function gatewayView(stack: Stack): Promise<Map<string, ReplicaView>> {
  try {
    const body = (await (await fetch(`${stack.base}/gateway/health`)).json()) as HealthBody;
    return new Map(
      Object.entries(body.upstreams).flatMap(([app, { replicas }]) =>
        replicas.map((x) => [`${app} ${x.replica}`, x] as const),
      ),
    );
  } catch {
    return new Map();
  }
}

/**
 * Restarts stopped replicas and waits (up to 90 s) for the gateway to route to each again: the
 * time each took, or null. How fast is not the bar (docs/reliability.md): a start-up on a busy
 * 2-core machine has taken over 30 s (the runner's sandbox pool, the bench's warm-up runs).
 */
async function restart(stack: Stack, replicas: Replica[]): Promise<Record<string, number | null>> {
  for (const r of replicas) stack.startReplica(r);
  const started = Date.now();
  const rejoined: Record<string, number | null> = Object.fromEntries(
    replicas.map((r) => [r.app, null]),
  );
  let view = new Map<string, ReplicaView>();
  while (Date.now() - started < 90_000) {
    view = await gatewayView(stack);
    for (const r of replicas) {
      if (rejoined[r.app] === null && view.get(`${r.app} ${r.index}`)?.state === "up") {
        rejoined[r.app] = Date.now() - started;
      }
    }
    if (Object.values(rejoined).every((ms) => ms !== null)) break;
    // One look for all of them, as often as the gateway checks: each look probes every replica.
    await Bun.sleep(500);
  }
  for (const r of replicas.filter((r) => rejoined[r.app] === null)) {
    const seen = view.get(`${r.app} ${r.index}`);
    const printed = r.output ? await lastOutput(r.output, 5) : "";
    console.error(
      `drills: ${r.app} ${r.index} not listed up within 90 s; the gateway's view: ${JSON.stringify(seen ?? null)}; it printed last:\n${printed}`,
    );
  }
  return rejoined;
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
        return { rejoinMs: await restart(stack, [r]) };
      });
    }
    await phase("SIGTERM replica 2 of every app, restarted", "sigterm", async () => {
      const twos = APPS.map((app) => replica(app, 2));
      await Promise.all(twos.map((r) => stack.stopReplica(r, "SIGTERM")));
      return { rejoinMs: await restart(stack, twos) };
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
