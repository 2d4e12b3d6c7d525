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

/**
 * A game of star catcher (apps/web/src/client/game/engine.ts) ends when its last life is lost, or
 * after an hour of play, whichever comes first.
 */
export const GAME_SECONDS_MAX = 3600;

/**
 * The highest score one game can produce, and so the highest the leaderboard takes. A star is 10
 * points times its level (1 to 7) and every whole second survived 1; at the seventh level things
 * fall 4× as often, at most every 0.55 / 4 = 0.1375 s, the first at 0.5 s, so an hour holds at
 * most 1 + ⌊3599.5 / 0.1375⌋ = 26,179 falling things: 26,179 stars caught at 70 points is
 * 1,832,530, plus 3,600 for the seconds. apps/web/test/engine.test.ts derives it again from the
 * engine's own constants and plays the best game the engine allows against it.
 */
export const SCORE_MAX = 1_836_130;
