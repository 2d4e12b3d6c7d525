import { invalidField, type SharedStore } from "@platform/server";
import {
  LEADERBOARD_SIZE,
  type LeaderboardEntry,
  PLAYER_NAME_MAX,
  PLAYER_NAME_MAX_UNITS,
  type ScoreSubmission,
  type SubmittedEntry,
} from "./model.ts";

const BOARD = "scores";
const NAME_PATH = "/body/playerName";

// C0/C1 controls and DEL, line and paragraph separators, and the bidi controls that can make a
// name display as something else. Zero-width joiners stay: emoji sequences are built with them.
const FORBIDDEN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * Trimmed, NFC-normalised, 1–32 user-perceived characters (grapheme clusters, so a family emoji
 * counts as one), no control characters.
 */
export function normalizePlayerName(raw: string): string {
  const name = raw.normalize("NFC").trim();
  if (name.length === 0) throw invalidField(NAME_PATH, "must not be empty or only whitespace");
  if (FORBIDDEN.test(name)) throw invalidField(NAME_PATH, "must not contain control characters");
  let count = 0;
  for (const _ of graphemes.segment(name)) count++;
  if (count > PLAYER_NAME_MAX || name.length > PLAYER_NAME_MAX_UNITS) {
    throw invalidField(NAME_PATH, `must be at most ${PLAYER_NAME_MAX} characters`);
  }
  return name;
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
    score: submission.score,
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
