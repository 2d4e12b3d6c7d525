import { commonEnv, metricsPort, parseEnv, port, redisEnv, EnvType as T } from "@platform/server";

export const RunnerEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  RUNNER_PORT: port(3003),
  /** `/metrics` (Prometheus) on a port of its own, never beside the API; 0 (default): off. */
  RUNNER_METRICS_PORT: metricsPort(0),
  /** POST /api/run per minute per client IP. */
  RUNNER_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 1_000_000, default: 60 }),
  /**
   * Fresh sandboxes kept started and waiting; as many used ones may wait for their client's
   * next run (RUNNER_SANDBOX_RUNS).
   */
  RUNNER_POOL_SIZE: T.Integer({ minimum: 1, maximum: 64, default: 4 }),
  /**
   * Runs one sandbox process may serve, all for the same client, each in a fresh worker (a new
   * JavaScript VM); 1: every sandbox serves one run. A sandbox is only reused after a clean run.
   */
  RUNNER_SANDBOX_RUNS: T.Integer({ minimum: 1, maximum: 10_000, default: 500 }),
  /** How long (ms) a used sandbox waits for its client's next run before it is stopped. */
  RUNNER_SANDBOX_IDLE_MS: T.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
  /**
   * Runs at once; more wait in the queue. Most runs are short and runs that spin are demoted to
   * the lowest CPU priority, so this is about memory (RUNNER_MEMORY_MB each) more than cores.
   */
  RUNNER_MAX_CONCURRENCY: T.Integer({ minimum: 1, maximum: 64, default: 8 }),
  /** Runs waiting for a turn; past it the runner answers 503 with Retry-After. */
  RUNNER_QUEUE_SIZE: T.Integer({ minimum: 0, maximum: 1_000, default: 16 }),
  /** Runs one client may have running or waiting at once; past it 429. */
  RUNNER_CLIENT_MAX_RUNS: T.Integer({ minimum: 1, maximum: 64, default: 2 }),
  /** Sandbox time (ms, checking included) one client's runs may take per minute; past it 429. */
  RUNNER_CLIENT_SANDBOX_MS: T.Integer({ minimum: 1_000, maximum: 3_600_000, default: 30_000 }),
  /** Processes that transpile and check programs; empty: one per RUNNER_MAX_CONCURRENCY. */
  RUNNER_CHECKERS: T.Optional(T.Integer({ minimum: 1, maximum: 64 })),
  /** A program whose transpiling and checking takes longer is refused. */
  RUNNER_CHECK_TIMEOUT_MS: T.Integer({ minimum: 100, maximum: 10_000, default: 1_000 }),
  /** Memory a program may allocate beyond Bun's own start-up footprint. */
  RUNNER_MEMORY_MB: T.Integer({ minimum: 32, maximum: 4_096, default: 256 }),
  /**
   * Kernel layers the runner may run programs without when the host lacks them: a comma-separated
   * list of seccomp, namespaces, rlimits, or "all". Empty: with any missing, run no program
   * (every run 503 SANDBOX_UNAVAILABLE naming it; readiness fails), though the app starts.
   */
  RUNNER_ALLOW_MISSING_LAYERS: T.String({ default: "", pattern: "^[a-z, ]*$" }),
});

export type RunnerEnv = typeof RunnerEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(RunnerEnv, source);
