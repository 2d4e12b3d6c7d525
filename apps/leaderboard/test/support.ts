import { createLogger, parseTrustedProxies, type SharedStore } from "@platform/server";
import { testStore } from "@platform/server/testing";
import { createApp } from "../src/app.ts";

export const silent = createLogger({ service: "leaderboard", level: "silent" });

/** An app on the suite's store (memory, or Redis when TEST_REDIS_URL is set). */
export function makeApp(
  opts: { store?: SharedStore; postsPerMinute?: number; trusted?: string; now?: () => number } = {},
) {
  const store = opts.store ?? testStore("leaderboard");
  const app = createApp({
    store,
    logger: silent,
    trustedProxies: parseTrustedProxies(opts.trusted ?? "loopback"),
    postsPerMinute: opts.postsPerMinute ?? 100_000,
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { app, store };
}

export type Entry = {
  id: string;
  playerName: string;
  score: number;
  timestamp: string;
  rank?: number | null;
};
