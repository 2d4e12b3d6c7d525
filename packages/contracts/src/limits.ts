/**
 * The contracts' plain constants, with no schema library imported, so browser code can use them
 * without bundling Elysia (the schema files re-export them).
 */
export const RUN_CODE_MAX = 1000;
export const RUN_TIMEOUT_MAX_MS = 5000;
export const RUN_OUTPUT_MAX_BYTES = 64 * 1024;

export const BENCHMARK_ITERATIONS = 10_000;
export const BENCHMARK_TYPES = ["json", "array", "string", "crypto"] as const;

export const LEADERBOARD_SIZE = 10;
export const PLAYER_NAME_MAX = 32;
