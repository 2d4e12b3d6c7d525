import { commonEnv, metricsPort, parseEnv, port, redisEnv, EnvType as T } from "@platform/server";

export const BenchEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  BENCH_PORT: port(3004),
  /** `/metrics` (Prometheus) on a port of its own, never beside the API; 0 (default): off. */
  BENCH_METRICS_PORT: metricsPort(0),
  /** Benchmark requests per minute per client IP (spec section 8: 10). */
  BENCH_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 1_000_000, default: 10 }),
  /** Runs allowed to wait behind the running one; past it requests get 503 + Retry-After. */
  BENCH_QUEUE_MAX: T.Integer({ minimum: 0, maximum: 1_000, default: 16 }),
  /** A run (worker start, warm-up and timed iterations) taking longer is stopped: 500. */
  BENCH_RUN_TIMEOUT_MS: T.Integer({ minimum: 1_000, maximum: 600_000, default: 30_000 }),
  /** Runs made at most per request when a run was disturbed (1: answer every first run). */
  BENCH_MAX_ATTEMPTS: T.Integer({ minimum: 1, maximum: 10, default: 3 }),
});

export type BenchEnv = typeof BenchEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(BenchEnv, source);
