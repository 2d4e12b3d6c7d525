import type { BrowserContext } from "playwright-core";

export type Site = { base: string; context: BrowserContext };

/** Low limits, so the tests reach each 429 in a few requests. */
export const LIMITS = { leaderboard: 4, bench: 3 };
