import { t } from "elysia";

export const UpstreamHealth = t.Object({
  status: t.UnionEnum(["up", "down"]),
  /** The upstream's own readiness answer, when it gave one. */
  httpStatus: t.Optional(t.Integer()),
  latencyMs: t.Number(),
  reason: t.Optional(t.String()),
});
export type UpstreamHealth = typeof UpstreamHealth.static;

export const GatewayHealth = t.Object({
  status: t.Literal("ok"),
  upstreams: t.Record(t.String(), UpstreamHealth),
});
export type GatewayHealth = typeof GatewayHealth.static;
