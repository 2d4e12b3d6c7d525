import { t } from "elysia";

export const UPSTREAMS = ["admissions", "leaderboard", "runner", "bench"] as const;
export const UpstreamName = t.UnionEnum(UPSTREAMS);
export type UpstreamName = typeof UpstreamName.static;

export const Route = t.Object({
  upstream: UpstreamName,
  /** Path prefixes, matched on segment boundaries: /api/run matches /api/run/x, not /api/runner. */
  prefixes: t.Array(t.String({ pattern: "^/" })),
  target: t.String({ description: "Upstream origin, e.g. http://127.0.0.1:3002" }),
  timeoutMs: t.Integer({ minimum: 1 }),
  maxBodyBytes: t.Integer({ minimum: 0 }),
});
export type Route = typeof Route.static;
