/**
 * The checker's recent verdicts, per client: a client that runs the same program again (the
 * playground's Run, pressed twice) gets it transpiled and checked from here instead of by a
 * checker process. A verdict depends on nothing but the program and whether the static check is
 * on, so it cannot go stale; verdicts the checker did not give (a check stopped for its time or
 * memory) are never kept. Keyed by client as well, so that how fast a check answers tells no one
 * what others ran. Bounded in entries and in bytes of JavaScript held.
 */
import type { StaticVerdict } from "../static-check.ts";

export type VerdictCache = {
  get(client: string, staticCheck: boolean, code: string): StaticVerdict | undefined;
  set(client: string, staticCheck: boolean, code: string, verdict: StaticVerdict): void;
  size(): number;
};

const sizeOf = (key: string, verdict: StaticVerdict) =>
  key.length + (verdict.ok ? verdict.js.length : verdict.message.length);

export function createVerdictCache({
  maxEntries,
  maxChars,
}: {
  maxEntries: number;
  /** Characters of keys and JavaScript held in all. */
  maxChars: number;
}): VerdictCache {
  /** In order of use: the first is the least recently used. */
  const entries = new Map<string, StaticVerdict>();
  let chars = 0;
  const keyOf = (client: string, staticCheck: boolean, code: string) =>
    `${client}\0${staticCheck ? 1 : 0}\0${code}`;
  return {
    get(client, staticCheck, code) {
      const key = keyOf(client, staticCheck, code);
      const verdict = entries.get(key);
      if (verdict) {
        entries.delete(key);
        entries.set(key, verdict);
      }
      return verdict;
    },
    set(client, staticCheck, code, verdict) {
      const key = keyOf(client, staticCheck, code);
      const size = sizeOf(key, verdict);
      if (size > maxChars || entries.has(key)) return;
      entries.set(key, verdict);
      chars += size;
      for (const [oldest, old] of entries) {
        if (entries.size <= maxEntries && chars <= maxChars) break;
        entries.delete(oldest);
        chars -= sizeOf(oldest, old);
      }
    },
    size: () => entries.size,
  };
}
