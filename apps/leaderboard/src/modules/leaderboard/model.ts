// The public shapes live in the shared contracts package (tests and other apps use them too);
// this module re-exports the ones its routes speak.
export {
  LEADERBOARD_SIZE,
  Leaderboard,
  LeaderboardEntry,
  PLAYER_NAME_MAX,
  SCORE_MAX,
  ScoreSubmission,
  SubmittedEntry,
} from "@platform/contracts/leaderboard";

/**
 * Besides the 32-character rule, a cap on UTF-16 units: 12 per character covers family, flag and
 * skin-tone emoji, while a tower of combining marks on one character stays out.
 */
export const PLAYER_NAME_MAX_UNITS = 384;
