import { commonEnv, metricsPort, parseEnv, port, EnvType as T, tracingEnv } from "@platform/server";

const MiB = 1024 * 1024;
/** Default of GATEWAY_HEALTH_INTERVAL_MS, exported so createApp's default is this same one. */
export const HEALTH_INTERVAL_MS = 5_000;
/** One origin, or several replicas of the app comma-separated (the gateway balances them). */
const origin = "https?://[^/,\\s]+/?";
const upstreamUrls = T.Optional(T.String({ pattern: `^${origin}(\\s*,\\s*${origin})*$` }));
const timeout = (fallback: number) =>
  T.Integer({ minimum: 100, maximum: 600_000, default: fallback });

export const GatewayEnv = T.Object({
  NODE_ENV: commonEnv.NODE_ENV,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  HOST: commonEnv.HOST,
  SHUTDOWN_TIMEOUT_MS: commonEnv.SHUTDOWN_TIMEOUT_MS,
  SHUTDOWN_DRAIN_MS: commonEnv.SHUTDOWN_DRAIN_MS,
  HTTP_PIPELINING: commonEnv.HTTP_PIPELINING,
  ...tracingEnv,
  GATEWAY_PORT: port(3000),
  /** `/metrics` (Prometheus) on a port of its own, never beside the API; 0 (default): off. */
  GATEWAY_METRICS_PORT: metricsPort(0),
  /**
   * The gateway is the edge: by default it trusts no X-Forwarded-For at all and writes the real
   * peer address. Name a load balancer in front of it here.
   */
  GATEWAY_TRUSTED_PROXIES: T.String({ default: "none" }),
  /** Largest request body for admissions (10 MiB documents plus multipart framing). */
  GATEWAY_MAX_UPLOAD_BYTES: T.Integer({ minimum: 1_024, maximum: 1_024 * MiB, default: 11 * MiB }),
  /** Largest request body for the JSON-only services. */
  GATEWAY_MAX_BODY_BYTES: T.Integer({ minimum: 1_024, maximum: 1_024 * MiB, default: 1 * MiB }),
  // Upstreams: an explicit URL, else 127.0.0.1 on the port the app itself reads.
  ADMISSIONS_PORT: port(3001),
  LEADERBOARD_PORT: port(3002),
  RUNNER_PORT: port(3003),
  BENCH_PORT: port(3004),
  WEB_PORT: port(3005),
  ADMISSIONS_URL: upstreamUrls,
  LEADERBOARD_URL: upstreamUrls,
  RUNNER_URL: upstreamUrls,
  BENCH_URL: upstreamUrls,
  /** The site: every path no API prefix claims (and not under /api or /gateway). */
  WEB_URL: upstreamUrls,
  // Time to the upstream's response headers, per route, before a 504.
  GATEWAY_ADMISSIONS_TIMEOUT_MS: timeout(30_000),
  GATEWAY_LEADERBOARD_TIMEOUT_MS: timeout(5_000),
  GATEWAY_RUNNER_TIMEOUT_MS: timeout(15_000),
  GATEWAY_BENCH_TIMEOUT_MS: timeout(60_000),
  GATEWAY_WEB_TIMEOUT_MS: timeout(10_000),
  /**
   * Origins (scheme://host[:port], comma-separated) whose pages may call the APIs from a
   * browser, with credentials. Empty: no CORS at all, same-origin only (the site is served
   * through the gateway itself).
   */
  GATEWAY_CORS_ORIGINS: T.String({ default: "" }),
  /**
   * How often each replica's readiness probe is asked; a replica failing it takes no traffic
   * until it passes again. Below 100 ms the checks would be load, not information.
   */
  GATEWAY_HEALTH_INTERVAL_MS: T.Integer({
    minimum: 100,
    maximum: 600_000,
    default: HEALTH_INTERVAL_MS,
  }),
});

export type GatewayEnv = typeof GatewayEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(GatewayEnv, source);
