/**
 * What the game keeps in this browser: the personal best and whether sound is off. Storage can
 * be refused (a private window, a full quota, a blocked site): the game then plays on without it.
 */
const BEST = "star-catcher:best";
const MUTED = "star-catcher:muted";

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not kept; nothing else depends on it.
  }
}

export function readBest(): number {
  const n = Number(read(BEST));
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** Keeps `score` if it beats the best; true when it did. */
export function offerBest(score: number): boolean {
  if (score <= readBest()) return false;
  write(BEST, String(score));
  return true;
}

export const readMuted = () => read(MUTED) === "true";
export const writeMuted = (muted: boolean) => write(MUTED, String(muted));
