import { commonEnv, metricsPort, parseEnv, port, redisEnv, EnvType as T } from "@platform/server";

export const LeaderboardEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  LEADERBOARD_PORT: port(3002),
  /** `/metrics` (Prometheus) on a port of its own, never beside the API; 0 (default): off. */
  LEADERBOARD_METRICS_PORT: metricsPort(0),
  /** POSTs per minute per client IP. */
  LEADERBOARD_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 1_000_000, default: 60 }),
});

export type LeaderboardEnv = typeof LeaderboardEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(LeaderboardEnv, source);
