import { JsonInteger } from "@platform/contracts";
import { t } from "elysia";

/** One answer of a readiness probe. */
export const Readiness = t.Object({
  status: t.UnionEnum(["up", "down"]),
  /** The replica's own readiness answer, when it gave one. */
  httpStatus: t.Optional(JsonInteger()),
  latencyMs: t.Number(),
  reason: t.Optional(t.String()),
});
export type Readiness = typeof Readiness.static;

/**
 * One replica as the balancer sees it. Replicas are named by their position in the app's URL
 * list, not by address: /gateway/health is public and internal addresses stay internal (the
 * log names them).
 */
export const ReplicaHealth = t.Object({
  replica: JsonInteger({ minimum: 1, description: "Position in the app's URL list, from 1" }),
  /**
   * The balancer's view: up takes traffic; not-ready failed its last periodic readiness check;
   * ejected had a connection fail and waits out `ejectedUntil` (or its next passing check).
   */
  state: t.UnionEnum(["up", "not-ready", "ejected"]),
  ejectedUntil: t.Optional(t.String({ format: "date-time" })),
  /** Requests sent to it and not yet answered (response headers not yet back). */
  outstanding: JsonInteger({ minimum: 0 }),
  /** Its readiness probe, asked for this answer. */
  readiness: Readiness,
});
export type ReplicaHealth = typeof ReplicaHealth.static;
