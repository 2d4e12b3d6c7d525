// The public shapes live in the shared contracts package (tests and other apps use them too);
// this module re-exports the ones its routes speak.
export {
  LEADERBOARD_SIZE,
  Leaderboard,
  LeaderboardEntry,
  PLAYER_NAME_MAX,
  ScoreSubmission,
  SubmittedEntry,
} from "@platform/contracts/leaderboard";

/** Besides the 32-character rule: a hard cap on UTF-16 units, so combining-mark towers stay small. */
export const PLAYER_NAME_MAX_UNITS = 128;
