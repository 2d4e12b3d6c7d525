import { t } from "elysia";

export const UPSTREAMS = ["admissions", "leaderboard", "runner", "bench", "web"] as const;
export const UpstreamName = t.UnionEnum(UPSTREAMS);
export type UpstreamName = typeof UpstreamName.static;

export const Route = t.Object({
  upstream: UpstreamName,
  /** Path prefixes, matched on segment boundaries: /api/run matches /api/run/x, not /api/runner. */
  prefixes: t.Array(t.String({ pattern: "^/" })),
  target: t.String({
    description:
      "Upstream origin, e.g. http://127.0.0.1:3002, or several replicas comma-separated " +
      "(as the environment gives them): the gateway balances requests across them",
  }),
  /** The app's readiness probe, asked on every replica (default /health/ready). */
  readyPath: t.Optional(t.String({ pattern: "^/" })),
  /** Where the app serves its OpenAPI document; the gateway merges them into the site's. */
  openapiPath: t.Optional(t.String({ pattern: "^/" })),
  timeoutMs: t.Integer({ minimum: 1 }),
  maxBodyBytes: t.Integer({ minimum: 0 }),
  /**
   * The route for every path no other route claims (the web site), except under the reserved
   * prefixes: an unknown API path stays a problem+json 404 rather than an HTML page.
   */
  fallback: t.Optional(t.Boolean()),
});
export type Route = typeof Route.static;

/** Namespaces of the APIs and the gateway: never handed to the fallback route. */
export const RESERVED_PREFIXES = ["/api", "/gateway"] as const;
