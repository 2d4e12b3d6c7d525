import { t } from "elysia";
import { Readiness, ReplicaHealth } from "../balancer/model.ts";

/**
 * One upstream: "up" while at least one replica passes its readiness probe (the route can
 * serve). The summary fields are that replica's answer (the first one up), else the first
 * replica's; `replicas` lists each one.
 */
export const UpstreamHealth = t.Object({
  ...Readiness.properties,
  replicas: t.Array(ReplicaHealth),
});
export type UpstreamHealth = typeof UpstreamHealth.static;

export const GatewayHealth = t.Object({
  status: t.Literal("ok"),
  upstreams: t.Record(t.String(), UpstreamHealth),
});
export type GatewayHealth = typeof GatewayHealth.static;

/** No replica of some upstream is ready: /gateway/health's 503. */
export const UPSTREAM_UNHEALTHY = {
  code: "UPSTREAM_UNHEALTHY",
  status: 503,
  title: "Upstream unhealthy",
  description:
    "`GET /gateway/health` with at least one upstream not ready; `upstreams` says which.",
} as const;
