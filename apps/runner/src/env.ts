import { commonEnv, parseEnv, port, redisEnv, EnvType as T } from "@platform/server";

export const RunnerEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  RUNNER_PORT: port(3003),
  /** POST /api/run per minute per client IP. */
  RUNNER_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 1_000_000, default: 60 }),
  /** Sandboxes kept started and waiting; each is used for one run only. */
  RUNNER_POOL_SIZE: T.Integer({ minimum: 1, maximum: 64, default: 4 }),
  /** Runs at once; more wait in the queue. */
  RUNNER_MAX_CONCURRENCY: T.Integer({ minimum: 1, maximum: 64, default: 4 }),
  /** Runs waiting for a turn; past it the runner answers 503 with Retry-After. */
  RUNNER_QUEUE_SIZE: T.Integer({ minimum: 0, maximum: 1_000, default: 16 }),
  /** Memory a program may allocate beyond Bun's own start-up footprint. */
  RUNNER_MEMORY_MB: T.Integer({ minimum: 32, maximum: 4_096, default: 256 }),
  /**
   * Kernel layers the runner may start without when the host lacks them: a comma-separated
   * list of seccomp, namespaces, rlimits, or "all". Empty: refuse to start with any missing.
   */
  RUNNER_ALLOW_MISSING_LAYERS: T.String({ default: "", pattern: "^[a-z, ]*$" }),
});

export type RunnerEnv = typeof RunnerEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(RunnerEnv, source);
