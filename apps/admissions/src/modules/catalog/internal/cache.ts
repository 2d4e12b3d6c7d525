import { type SharedStore, StoreUnavailableError } from "@platform/server";

const GENERATION_KEY = "catalog:generation";
/** Bounds how stale a cached page can be for time-dependent filters (openForApplications). */
const ENTRY_TTL_MS = 30_000;
const GENERATION_TTL_MS = 365 * 86_400_000;

/**
 * The public catalog list, cached in the shared store. Every catalog write bumps a generation
 * number that is part of each key, so all replicas stop serving old pages at once without
 * having to find and delete them. The cache is only a cache: with the store down the list is
 * read from the database (docs/reliability.md found catalog reads failing with Redis).
 */
export type CatalogCache = {
  read<T>(query: object, load: () => Promise<T>): Promise<T>;
  invalidate(): Promise<void>;
};

export function catalogCache(store: SharedStore): CatalogCache {
  return {
    async read<T>(query: object, load: () => Promise<T>): Promise<T> {
      let key: string;
      try {
        const generation = (await store.get(GENERATION_KEY)) ?? "0";
        key = `catalog:list:${generation}:${canonical(query)}`;
        const hit = await store.get(key);
        if (hit !== null) return JSON.parse(hit) as T;
      } catch (error) {
        if (error instanceof StoreUnavailableError) return load();
        throw error;
      }
      const value = await load();
      // Not being able to keep it for next time must not fail this answer.
      await store.set(key, JSON.stringify(value), ENTRY_TTL_MS).catch((error: unknown) => {
        if (!(error instanceof StoreUnavailableError)) throw error;
      });
      return value;
    },
    async invalidate() {
      await store.increment(GENERATION_KEY, GENERATION_TTL_MS);
    },
  };
}

/** The same filters in any order make the same key. */
const canonical = (query: object): string =>
  JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)));
