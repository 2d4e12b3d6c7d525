import {
  clientGuards,
  createRateLimiter,
  rateLimits,
  type SharedStore,
  type TrustedProxies,
} from "@platform/server";
import { genericProblems as problems } from "@platform/server/openapi";
import { Elysia } from "elysia";
import { Leaderboard, ScoreSubmission, SubmittedEntry } from "./model.ts";
import { submitScore, topEntries } from "./service.ts";

export type LeaderboardDeps = {
  store: SharedStore;
  trustedProxies: TrustedProxies;
  /** POSTs per minute per client IP. */
  postsPerMinute: number;
  now: () => number;
};

const PATH = "/api/leaderboard";
const tags = ["leaderboard"];

export const leaderboard = (deps: LeaderboardDeps) => {
  const { store, now } = deps;
  const submitLimit = createRateLimiter(
    store,
    { name: "leaderboard-submit", limit: deps.postsPerMinute, windowMs: 60_000 },
    now,
  );
  return new Elysia({ name: "leaderboard", prefix: PATH })
    .use(clientGuards(deps.trustedProxies))
    .use(rateLimits({ trusted: deps.trustedProxies }))
    .get("", () => topEntries(store), {
      response: Leaderboard,
      detail: {
        tags,
        summary: "The top 10 entries, highest score first; ties list the earlier first",
      },
    })
    .post(
      "",
      async ({ body, set }) => {
        set.status = 201;
        return submitScore(store, body, now());
      },
      {
        body: ScoreSubmission,
        rateLimit: { key: "ip", limiter: submitLimit },
        response: { 201: SubmittedEntry, ...problems("RATE_LIMITED") },
        detail: {
          tags,
          summary:
            "Submit a score; answers the stored entry and its rank (null outside the top 10)",
        },
      },
    );
};
