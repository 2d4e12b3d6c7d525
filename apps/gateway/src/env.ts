import { commonEnv, metricsPort, parseEnv, port, EnvType as T, tracingEnv } from "@platform/server";

const MiB = 1024 * 1024;
/** Default of GATEWAY_HEALTH_INTERVAL_MS, exported so createApp's default is this same one. */
export const HEALTH_INTERVAL_MS = 5_000;
/** One origin, or several replicas of the app comma-separated (the gateway balances them). */
const origin = "https?://[^/,\\s]+/?";
const upstreamUrls = (app: string, portVariable: string) =>
  T.Optional(
    T.String({
      pattern: `^${origin}(\\s*,\\s*${origin})*$`,
      description: `Where ${app} answers; unset: \`http://127.0.0.1:<${portVariable}>\`. Several origins, comma-separated, are replicas the gateway balances (least outstanding requests, readiness checks, ejection, one retry where it is safe).`,
    }),
  );
/** Time to the upstream's response headers, per route, before a 504. */
const timeout = (fallback: number, prefixes: string) =>
  T.Integer({
    minimum: 100,
    maximum: 600_000,
    default: fallback,
    description: `Time (ms) to the response headers of ${prefixes} before a 504 \`GATEWAY_TIMEOUT\`; the body then streams at the client's pace.`,
  });
const upstreamPort = (app: string, fallback: number) =>
  port(
    fallback,
    `Port ${app} listens on; the gateway's default upstream for it is 127.0.0.1 there.`,
  );

export const GatewayEnv = T.Object({
  NODE_ENV: commonEnv.NODE_ENV,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  HOST: commonEnv.HOST,
  SHUTDOWN_TIMEOUT_MS: commonEnv.SHUTDOWN_TIMEOUT_MS,
  SHUTDOWN_DRAIN_MS: commonEnv.SHUTDOWN_DRAIN_MS,
  HTTP_PIPELINING: commonEnv.HTTP_PIPELINING,
  PUBLIC_URL: commonEnv.PUBLIC_URL,
  ...tracingEnv,
  GATEWAY_PORT: port(3000, "Port the gateway listens on: the one address of the whole site."),
  GATEWAY_METRICS_PORT: metricsPort(0),
  GATEWAY_TRUSTED_PROXIES: T.String({
    default: "none",
    description:
      "The gateway is the edge: by default it trusts no `X-Forwarded-For` at all and writes the real peer address. Name a load balancer in front of it here (as for `TRUSTED_PROXIES`).",
  }),
  GATEWAY_MAX_UPLOAD_BYTES: T.Integer({
    minimum: 1_024,
    maximum: 1_024 * MiB,
    default: 11 * MiB,
    description: "Largest request body for admissions (10 MiB documents plus multipart framing).",
  }),
  GATEWAY_MAX_BODY_BYTES: T.Integer({
    minimum: 1_024,
    maximum: 1_024 * MiB,
    default: 1 * MiB,
    description: "Largest request body for the other services.",
  }),
  ADMISSIONS_PORT: upstreamPort("admissions", 3001),
  LEADERBOARD_PORT: upstreamPort("the leaderboard", 3002),
  RUNNER_PORT: upstreamPort("the runner", 3003),
  BENCH_PORT: upstreamPort("the bench", 3004),
  WEB_PORT: upstreamPort("the site", 3005),
  ADMISSIONS_URL: upstreamUrls("admissions", "ADMISSIONS_PORT"),
  LEADERBOARD_URL: upstreamUrls("the leaderboard", "LEADERBOARD_PORT"),
  RUNNER_URL: upstreamUrls("the runner", "RUNNER_PORT"),
  BENCH_URL: upstreamUrls("the bench", "BENCH_PORT"),
  // The site: every path no API prefix claims (and not under /api or /gateway).
  WEB_URL: upstreamUrls("the site", "WEB_PORT"),
  GATEWAY_ADMISSIONS_TIMEOUT_MS: timeout(30_000, "`/health/*` and `/api/v1/*` (admissions)"),
  GATEWAY_LEADERBOARD_TIMEOUT_MS: timeout(5_000, "`/api/leaderboard`"),
  GATEWAY_RUNNER_TIMEOUT_MS: timeout(15_000, "`/api/run`"),
  GATEWAY_BENCH_TIMEOUT_MS: timeout(60_000, "`/api/benchmark`"),
  GATEWAY_WEB_TIMEOUT_MS: timeout(10_000, "the site's pages"),
  GATEWAY_CORS_ORIGINS: T.String({
    default: "",
    description:
      "Origins (`scheme://host[:port]`, comma-separated) whose pages may call the APIs from a browser, with credentials; the gateway answers their preflights. Empty: no CORS at all, same-origin only (the site is served through the gateway itself).",
  }),
  // Below 100 ms the checks would be load, not information.
  GATEWAY_HEALTH_INTERVAL_MS: T.Integer({
    minimum: 100,
    maximum: 600_000,
    default: HEALTH_INTERVAL_MS,
    description:
      "How often each replica's readiness probe is asked; a replica failing it takes no traffic until it passes again.",
  }),
});

export type GatewayEnv = typeof GatewayEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(GatewayEnv, source);
