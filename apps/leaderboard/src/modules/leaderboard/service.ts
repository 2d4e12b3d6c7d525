import { invalidField, type SharedStore } from "@platform/server";
import {
  LEADERBOARD_SIZE,
  type LeaderboardEntry,
  PLAYER_NAME_MAX,
  PLAYER_NAME_MAX_UNITS,
  SCORE_MAX,
  type ScoreSubmission,
  type SubmittedEntry,
} from "./model.ts";

const BOARD = "scores";
const NAME_PATH = "/body/playerName";
const SCORE_PATH = "/body/score";

// C0/C1 controls and DEL, line and paragraph separators, and every bidi control (marks,
// embeddings, overrides, isolates: any of them can make a name display as something else).
// Zero-width joiners and variation selectors stay: emoji sequences are built with them.
const FORBIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/u;
// What a person can see: a letter, digit, punctuation mark or symbol, minus the characters that
// are letters or symbols to Unicode yet render as nothing (the Hangul fillers are \p{Lo}, the
// braille blank U+2800 is \p{So}; the rest of the fillers and zero-width characters are
// Default_Ignorable_Code_Point). Marks do not count: a lone accent has nothing to sit on.
const VISIBLE = /[[\p{L}\p{N}\p{P}\p{S}]--[\p{Default_Ignorable_Code_Point}\u2800]]/v;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * Trimmed, NFC-normalised, 1–32 user-perceived characters (grapheme clusters, so a family emoji
 * counts as one), at least one of them visible, no control characters or bidi controls.
 */
export function normalizePlayerName(raw: string): string {
  const name = raw.normalize("NFC").trim();
  if (name.length === 0) throw invalidField(NAME_PATH, "must not be empty or only whitespace");
  if (FORBIDDEN.test(name)) {
    throw invalidField(NAME_PATH, "must not contain control characters or text-direction marks");
  }
  if (!VISIBLE.test(name)) {
    throw invalidField(
      NAME_PATH,
      "must contain at least one visible character: a letter, digit, punctuation mark or symbol",
    );
  }
  let count = 0;
  for (const _ of graphemes.segment(name)) count++;
  if (count > PLAYER_NAME_MAX || name.length > PLAYER_NAME_MAX_UNITS) {
    throw invalidField(NAME_PATH, `must be at most ${PLAYER_NAME_MAX} characters`);
  }
  return name;
}

/**
 * A score the game can produce: a whole number from 0 to SCORE_MAX (packages/contracts limits.ts
 * derives it from the game's rules). Without an upper bound, ten Number.MAX_VALUE entries would
 * hold the top 10 for ever, since a tie keeps the earlier entry ahead.
 */
export function checkScore(score: number): number {
  if (!Number.isInteger(score) || score < 0 || score > SCORE_MAX) {
    throw invalidField(
      SCORE_PATH,
      `must be a whole number from 0 to ${SCORE_MAX}, the most one game can score`,
    );
  }
  // JSON's -0 is a whole number in range; the board stores and shows it as 0.
  return score === 0 ? 0 : score;
}

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** `<ms timestamp>-<8 random base-36 characters>`: ~41 random bits per millisecond. */
export function newEntryId(nowMs: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let suffix = "";
  for (const byte of bytes) suffix += ALPHABET[byte % 36];
  return `${nowMs}-${suffix}`;
}

export async function submitScore(
  store: SharedStore,
  submission: ScoreSubmission,
  nowMs: number,
): Promise<SubmittedEntry> {
  const entry: LeaderboardEntry = {
    id: newEntryId(nowMs),
    playerName: normalizePlayerName(submission.playerName),
    score: checkScore(submission.score),
    timestamp: new Date(nowMs).toISOString(),
  };
  const rank = await store.rankedInsert(
    BOARD,
    entry.score,
    JSON.stringify(entry),
    LEADERBOARD_SIZE,
  );
  return { ...entry, rank };
}

export async function topEntries(store: SharedStore): Promise<LeaderboardEntry[]> {
  const payloads = await store.rankedTop(BOARD, LEADERBOARD_SIZE);
  return payloads.map((payload) => JSON.parse(payload) as LeaderboardEntry);
}
