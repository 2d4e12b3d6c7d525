/** One phase of the drills as reported: what it did, and its requests summed up. */
import type { Outcome } from "./load.ts";

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

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The requests answered in [from, to) summed up; `since` is the event (or a dependency's
 * return) the last failure is timed from.
 */
export function summarise(outcomes: Outcome[], from: number, to: number, since: number) {
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
