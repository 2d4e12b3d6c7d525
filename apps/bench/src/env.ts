import { commonEnv, metricsPort, parseEnv, port, redisEnv, EnvType as T } from "@platform/server";

export const BenchEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  BENCH_PORT: port(3004, "Port the bench listens on."),
  BENCH_METRICS_PORT: metricsPort(0),
  // The spec (section 8) sets 10.
  BENCH_RATE_LIMIT: T.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 10,
    description: "Benchmark requests per minute per client IP.",
  }),
  BENCH_QUEUE_MAX: T.Integer({
    minimum: 0,
    maximum: 1_000,
    default: 16,
    description: "Runs allowed to wait behind the running one; past it, 503 with `Retry-After`.",
  }),
  BENCH_RUN_TIMEOUT_MS: T.Integer({
    minimum: 1_000,
    maximum: 600_000,
    default: 30_000,
    description:
      "A run (worker start, warm-up and timed iterations) taking longer is stopped: 500 `BENCHMARK_FAILED`.",
  }),
  BENCH_MAX_ATTEMPTS: T.Integer({
    minimum: 1,
    maximum: 10,
    default: 3,
    description:
      "Runs made at most per benchmark request when a run was disturbed by other work on the host; `1` answers every first run.",
  }),
});

export type BenchEnv = typeof BenchEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(BenchEnv, source);
