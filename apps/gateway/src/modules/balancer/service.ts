import type { Logger } from "@platform/server";
import type { Route } from "../proxy/model.ts";
import { originsOf } from "../proxy/routes.ts";
import type { Readiness, ReplicaHealth } from "./model.ts";
import { probe } from "./probe.ts";

/** First passive ejection; each further one in a row doubles, up to the cap. */
export const EJECT_BASE_MS = 1_000;
export const EJECT_MAX_MS = 30_000;

export type Replica = {
  /** Position in the route's URL list, from 1: how /gateway/health names it. */
  readonly index: number;
  readonly origin: string;
  outstanding: number;
  /** Replicas start ready, so traffic flows before the first check has answered. */
  ready: boolean;
  /** Epoch ms until which a connection failure keeps it out; 0 when not ejected. */
  ejectedUntil: number;
  /** Ejections since a readiness check last passed: how long the next one lasts. */
  ejections: number;
};

export type Pool = {
  readonly route: Route;
  readonly replicas: readonly Replica[];
  readonly logger: Logger;
  /** Where the next pick starts looking, so equally loaded replicas take turns. */
  cursor: number;
  /** An active check still running (a slow probe must not stack up behind the interval). */
  checking: boolean;
};

export function createPool(route: Route, logger: Logger): Pool {
  const replicas = originsOf(route.target).map((origin, i) => ({
    index: i + 1,
    origin,
    outstanding: 0,
    ready: true,
    ejectedUntil: 0,
    ejections: 0,
  }));
  return { route, replicas, logger, cursor: 0, checking: false };
}

const usable = (replica: Replica, now: number) => replica.ready && replica.ejectedUntil <= now;

/**
 * The usable replica with the fewest outstanding requests (other than `except`, the one that
 * just failed). Least-outstanding rather than round robin: a run on the runner or the bench
 * takes up to seconds while a leaderboard read takes a millisecond, so taking turns would pile
 * work on a replica that is still busy. When no replica is usable the least loaded of the rest
 * is tried anyway: a chance of an answer beats a sure 503, and an ejection may be stale.
 */
export function pick(pool: Pool, except?: Replica): Replica | undefined {
  const { replicas } = pool;
  const count = replicas.length;
  if (count === 1) return replicas[0] === except ? undefined : replicas[0];
  const now = Date.now();
  const start = pool.cursor++ % count;
  let best: Replica | undefined;
  let fallback: Replica | undefined;
  for (let i = 0; i < count; i++) {
    const replica = replicas[(start + i) % count];
    if (!replica || replica === except) continue;
    if (usable(replica, now)) {
      if (!best || replica.outstanding < best.outstanding) best = replica;
    } else if (!fallback || replica.outstanding < fallback.outstanding) {
      fallback = replica;
    }
  }
  return best ?? fallback;
}

/**
 * A connection to the replica failed before any response: keep it out for a while that grows
 * with each failure in a row, until it has passed a readiness check. With one replica there is
 * nothing to steer around, so nothing changes (the gateway behaves as with a single upstream).
 */
export function eject(pool: Pool, replica: Replica, reason: string): void {
  const now = Date.now();
  // Requests in flight when it went down fail together: one ejection, not one per request.
  if (pool.replicas.length === 1 || replica.ejectedUntil > now) return;
  const forMs = Math.min(EJECT_BASE_MS * 2 ** replica.ejections, EJECT_MAX_MS);
  replica.ejections++;
  replica.ejectedUntil = now + forMs;
  pool.logger.warn("replica ejected", {
    upstream: pool.route.upstream,
    replica: replica.origin,
    reason,
    forMs,
  });
}

/** Takes a readiness answer: a failing replica is out until a check passes, which also ends an ejection. */
export function recordReadiness(pool: Pool, replica: Replica, result: Readiness): void {
  const fields = { upstream: pool.route.upstream, replica: replica.origin };
  if (result.status === "up") {
    if (!replica.ready || replica.ejections > 0) pool.logger.info("replica recovered", fields);
    replica.ready = true;
    replica.ejectedUntil = 0;
    replica.ejections = 0;
  } else {
    if (replica.ready) {
      pool.logger.warn("replica not ready", {
        ...fields,
        httpStatus: result.httpStatus,
        reason: result.reason,
      });
    }
    replica.ready = false;
  }
}

/** Every replica's readiness probe at once, in replica order. */
export function probeReplicas(pool: Pool, timeoutMs: number): Promise<Readiness[]> {
  const path = pool.route.readyPath ?? "/health/ready";
  return Promise.all(pool.replicas.map((replica) => probe(replica.origin + path, timeoutMs)));
}

/** An active check: probes every replica and lets each answer steer the traffic. */
export async function checkPool(pool: Pool, timeoutMs: number): Promise<void> {
  const results = await probeReplicas(pool, timeoutMs);
  pool.replicas.forEach((replica, i) => {
    const result = results[i];
    if (result) recordReadiness(pool, replica, result);
  });
}

export function replicaHealth(replica: Replica, readiness: Readiness): ReplicaHealth {
  const now = Date.now();
  const ejected = replica.ejectedUntil > now;
  return {
    replica: replica.index,
    state: !replica.ready ? "not-ready" : ejected ? "ejected" : "up",
    ...(ejected ? { ejectedUntil: new Date(replica.ejectedUntil).toISOString() } : {}),
    outstanding: replica.outstanding,
    readiness,
  };
}
