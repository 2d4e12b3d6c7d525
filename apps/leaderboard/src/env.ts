import { commonEnv, metricsPort, parseEnv, port, redisEnv, EnvType as T } from "@platform/server";

export const LeaderboardEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  LEADERBOARD_PORT: port(3002, "Port the leaderboard listens on."),
  LEADERBOARD_METRICS_PORT: metricsPort(0),
  LEADERBOARD_RATE_LIMIT: T.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 60,
    description: "`POST /api/leaderboard` per minute per client IP (reads are not limited).",
  }),
});

export type LeaderboardEnv = typeof LeaderboardEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(LeaderboardEnv, source);
