import { memoryStore } from "./memory.ts";
import { redisStore } from "./redis.ts";
import type { SharedStore } from "./types.ts";

export { memoryStore } from "./memory.ts";
export { redisStore, StoreUnavailableError } from "./redis.ts";
export type { SharedStore, WindowHit } from "./types.ts";

/** Redis when a URL is configured, else process memory: the one switch every app uses. */
export function createStore(opts: { redisUrl?: string | undefined; prefix: string }): SharedStore {
  return opts.redisUrl ? redisStore(opts.redisUrl, { prefix: opts.prefix }) : memoryStore();
}
