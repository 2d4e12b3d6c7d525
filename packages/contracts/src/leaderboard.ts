import { t } from "elysia";
import { JsonInteger } from "./integer.ts";
import { LEADERBOARD_SIZE, PLAYER_NAME_MAX, SCORE_MAX } from "./limits.ts";

export { LEADERBOARD_SIZE, PLAYER_NAME_MAX, SCORE_MAX };

const SCORE_RULE = `A whole number from 0 to ${SCORE_MAX}, the most one game can score`;

/** `<ms timestamp>-<short alphanumeric suffix>`, made by the server. */
export const ENTRY_ID_PATTERN = "^[0-9]{13,}-[0-9a-z]{4,16}$";

export const LeaderboardEntry = t.Object({
  id: t.String({ pattern: ENTRY_ID_PATTERN, examples: ["1763769600000-k3j9x2qa"] }),
  playerName: t.String({ minLength: 1, maxLength: PLAYER_NAME_MAX * 12 }),
  score: t.Number({ description: SCORE_RULE }),
  timestamp: t.String({ format: "date-time", examples: ["2026-11-22T00:00:00.000Z"] }),
});
export type LeaderboardEntry = typeof LeaderboardEntry.static;

/**
 * What a client sends. The raw bound on `playerName` only keeps absurd inputs out before parsing;
 * the real rule (trimmed, 1–32 characters, at least one visible, no control characters or bidi
 * controls: docs/decisions.md, Leaderboard) is applied by the service.
 * Unknown fields (a client-sent `id` or `timestamp` among them) are dropped.
 */
export const ScoreSubmission = t.Object({
  playerName: t.String({ maxLength: 1024, examples: ["Ada"] }),
  // A JSON number, as the spec says (so 4200.0 and 4.2e3 are 4200 too); the range and the whole
  // number are checked by the service, which says so in words.
  score: t.Number({ description: SCORE_RULE, examples: [4200] }),
});
export type ScoreSubmission = typeof ScoreSubmission.static;

export const SubmittedEntry = t.Composite([
  LeaderboardEntry,
  t.Object({
    rank: t.Union([JsonInteger({ minimum: 1, maximum: LEADERBOARD_SIZE }), t.Null()], {
      description: "1-based position if the entry is in the top 10, else null",
    }),
  }),
]);
export type SubmittedEntry = typeof SubmittedEntry.static;

export const Leaderboard = t.Array(LeaderboardEntry, { maxItems: LEADERBOARD_SIZE });
export type Leaderboard = typeof Leaderboard.static;
