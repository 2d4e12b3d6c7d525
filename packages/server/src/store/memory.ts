import type { SharedStore, WindowHit } from "./types.ts";

type Ranked = { score: number; seq: number; payload: string };

/**
 * In-process store. Expired keys and idle windows are swept once a minute so memory stays
 * bounded by live state, not by history; rankings never hold more than `keep` entries.
 */
export function memoryStore(opts: { sweepIntervalMs?: number } = {}): SharedStore & {
  sizes(): { keys: number; windows: number; ranked: number };
} {
  const values = new Map<string, { value: string; expiresAt: number }>();
  const windows = new Map<string, { hits: number[]; windowMs: number }>();
  const boards = new Map<string, Ranked[]>();
  let seq = 0;

  const live = (key: string) => {
    const entry = values.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      values.delete(key);
      return undefined;
    }
    return entry;
  };
  const expiry = (ttlMs?: number) =>
    ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs;

  const sweep = () => {
    const now = Date.now();
    for (const [key, entry] of values) if (entry.expiresAt <= now) values.delete(key);
    for (const [key, window] of windows) {
      const newest = window.hits.at(-1);
      if (newest === undefined || newest <= now - window.windowMs) windows.delete(key);
    }
  };
  const timer = setInterval(sweep, opts.sweepIntervalMs ?? 60_000);
  timer.unref();

  return {
    kind: "memory",
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlMs) {
      values.set(key, { value, expiresAt: expiry(ttlMs) });
    },
    async setIfAbsent(key, value, ttlMs) {
      if (live(key)) return false;
      values.set(key, { value, expiresAt: expiry(ttlMs) });
      return true;
    },
    async delete(key) {
      values.delete(key);
    },
    async increment(key, ttlMs) {
      const entry = live(key);
      const next = (entry ? Number(entry.value) : 0) + 1;
      values.set(key, { value: String(next), expiresAt: entry?.expiresAt ?? expiry(ttlMs) });
      return next;
    },
    async hitWindow(key, limit, windowMs, nowMs): Promise<WindowHit> {
      let window = windows.get(key);
      if (!window) {
        window = { hits: [], windowMs };
        windows.set(key, window);
      }
      const hits = window.hits;
      let expired = 0;
      while (expired < hits.length && (hits[expired] ?? 0) <= nowMs - windowMs) expired++;
      if (expired > 0) hits.splice(0, expired);
      const allowed = hits.length < limit;
      if (allowed) hits.push(nowMs);
      return { allowed, count: hits.length, oldestMs: hits[0] ?? nowMs };
    },
    async rankedInsert(board, score, payload, keep) {
      let entries = boards.get(board);
      if (!entries) {
        entries = [];
        boards.set(board, entries);
      }
      // The first entry with a strictly lower score: equal scores stay ahead (earlier first).
      let position = entries.findIndex((entry) => entry.score < score);
      if (position === -1) position = entries.length;
      if (position >= keep) return null;
      entries.splice(position, 0, { score, seq: ++seq, payload });
      if (entries.length > keep) entries.length = keep;
      return position + 1;
    },
    async rankedTop(board, count) {
      return (boards.get(board) ?? []).slice(0, count).map((entry) => entry.payload);
    },
    async ping() {},
    async close() {
      clearInterval(timer);
    },
    sizes() {
      let ranked = 0;
      for (const entries of boards.values()) ranked += entries.length;
      return { keys: values.size, windows: windows.size, ranked };
    },
  };
}
