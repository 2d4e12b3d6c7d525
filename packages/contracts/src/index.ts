export * from "./benchmark.ts";
export * from "./integer.ts";
export * from "./leaderboard.ts";
export * from "./problem.ts";
export * from "./run.ts";
