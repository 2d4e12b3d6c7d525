/** The outcome of one hit on a sliding-log window. */
export type WindowHit = {
  allowed: boolean;
  /** Hits inside the window after this one (a refused hit is not recorded). */
  count: number;
  /** Time (ms) of the oldest hit still inside the window; `now` when the window was empty. */
  oldestMs: number;
};

/**
 * Shared state of every app, behind one small interface: process memory by default, Redis when
 * REDIS_URL is set, so replicas share sessions, counters, rate limits and the leaderboard.
 * Every operation that reads and then writes is atomic on both backends.
 */
export interface SharedStore {
  readonly kind: "memory" | "redis";

  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Sets only when the key is absent; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds one; the TTL starts with the first increment. */
  increment(key: string, ttlMs: number): Promise<number>;

  /** Records a hit at `nowMs` unless `limit` hits already fall inside (nowMs - windowMs, nowMs]. */
  hitWindow(key: string, limit: number, windowMs: number, nowMs: number): Promise<WindowHit>;

  /**
   * Adds `payload` under `score` to a ranking that keeps only its best `keep` entries (score
   * descending, earlier insert first on ties). Returns the 1-based rank, or null when the entry
   * did not make the cut and was not kept.
   */
  rankedInsert(board: string, score: number, payload: string, keep: number): Promise<number | null>;
  /** Payloads of the best `count` entries, best first. */
  rankedTop(board: string, count: number): Promise<string[]>;

  /** Throws when the backend cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
