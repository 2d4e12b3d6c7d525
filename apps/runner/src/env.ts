import { commonEnv, metricsPort, parseEnv, port, redisEnv, EnvType as T } from "@platform/server";

export const RunnerEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  RUNNER_PORT: port(3003, "Port the runner listens on."),
  RUNNER_METRICS_PORT: metricsPort(0),
  RUNNER_RATE_LIMIT: T.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 60,
    description: "`POST /api/run` per minute per client IP.",
  }),
  RUNNER_POOL_SIZE: T.Integer({
    minimum: 1,
    maximum: 64,
    default: 4,
    description:
      "Fresh sandboxes kept started and waiting; as many used ones may wait for their client's next run (`RUNNER_SANDBOX_RUNS`).",
  }),
  RUNNER_SANDBOX_RUNS: T.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 500,
    description:
      "Runs one sandbox process may serve, all for the same client, each in a fresh worker (a new JavaScript VM); `1`: no sandbox is reused. A sandbox is only reused after a clean run ([docs/runner.md](docs/runner.md)).",
  }),
  RUNNER_SANDBOX_IDLE_MS: T.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 30_000,
    description: "How long a used sandbox waits for its client's next run before it is stopped.",
  }),
  // Most runs are short and runs that spin are demoted to the lowest CPU priority.
  RUNNER_MAX_CONCURRENCY: T.Integer({
    minimum: 1,
    maximum: 64,
    default: 8,
    description:
      "Runs at once; more wait in the queue. Long runs yield the CPU (`SCHED_IDLE`), so this bounds memory (`RUNNER_MEMORY_MB` each) more than cores.",
  }),
  RUNNER_QUEUE_SIZE: T.Integer({
    minimum: 0,
    maximum: 1_000,
    default: 16,
    description: "Runs waiting for a slot; past it 503 `RUNNER_BUSY` with `Retry-After`.",
  }),
  RUNNER_CLIENT_MAX_RUNS: T.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description:
      "Runs one client may have running or waiting at once; past it 429 `CLIENT_RUNS_EXCEEDED`.",
  }),
  RUNNER_CLIENT_SANDBOX_MS: T.Integer({
    minimum: 1_000,
    maximum: 3_600_000,
    default: 30_000,
    description:
      "Sandbox time (ms, checking included) one client's runs may use per minute; past it 429 `SANDBOX_TIME_EXCEEDED`.",
  }),
  RUNNER_CHECKERS: T.Optional(
    T.Integer({
      minimum: 1,
      maximum: 64,
      description:
        "Processes that transpile and check programs outside the runner; unset: one per `RUNNER_MAX_CONCURRENCY`.",
    }),
  ),
  RUNNER_CHECK_TIMEOUT_MS: T.Integer({
    minimum: 100,
    maximum: 10_000,
    default: 1_000,
    description: "A program whose transpiling and checking takes longer is refused.",
  }),
  RUNNER_MEMORY_MB: T.Integer({
    minimum: 32,
    maximum: 4_096,
    default: 256,
    description: "Memory a program may allocate beyond Bun's own start-up footprint.",
  }),
  RUNNER_ALLOW_MISSING_LAYERS: T.String({
    default: "",
    pattern: "^[a-z, ]*$",
    description:
      "Kernel layers the runner may run programs without when the host lacks them: `seccomp`, `namespaces`, `rlimits` (comma-separated) or `all`. Empty: with any missing, every run is 503 `SANDBOX_UNAVAILABLE` naming it and the fix, and readiness fails; the runner still starts.",
  }),
});

export type RunnerEnv = typeof RunnerEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(RunnerEnv, source);
