import type { SharedStore } from "../store/types.ts";

export type RateLimitPolicy = {
  /** Names the policy in RateLimit-Policy and separates its counters from other policies. */
  name: string;
  limit: number;
  windowMs: number;
};

export type RateLimitDecision = {
  allowed: boolean;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (a unit of quota returns). */
  resetSeconds: number;
};

export type RateLimiter = {
  readonly policy: RateLimitPolicy;
  check(key: string): Promise<RateLimitDecision>;
};

/**
 * A sliding log: a request is allowed when fewer than `limit` requests were allowed in the last
 * `windowMs`. Unlike fixed windows there is no double burst at a boundary, and the quota comes
 * back one request at a time as old requests leave the window. Exact per key, atomic on Redis.
 */
export function createRateLimiter(
  store: SharedStore,
  policy: RateLimitPolicy,
  now: () => number = Date.now,
): RateLimiter {
  return {
    policy,
    async check(key) {
      const at = now();
      const hit = await store.hitWindow(
        `ratelimit:${policy.name}:${key}`,
        policy.limit,
        policy.windowMs,
        at,
      );
      const untilFree = Math.max(0, hit.oldestMs + policy.windowMs - at);
      return {
        allowed: hit.allowed,
        remaining: Math.max(0, policy.limit - hit.count),
        resetSeconds: Math.ceil(untilFree / 1000),
      };
    },
  };
}

/**
 * IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-09): the policy's quota and
 * window, and what is left of it now. Retry-After is added when the request was refused.
 */
export function rateLimitHeaders(
  policy: RateLimitPolicy,
  decision: RateLimitDecision,
): Record<string, string> {
  const headers: Record<string, string> = {
    "ratelimit-policy": `"${policy.name}";q=${policy.limit};w=${Math.ceil(policy.windowMs / 1000)}`,
    ratelimit: `"${policy.name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers["retry-after"] = String(Math.max(1, decision.resetSeconds));
  return headers;
}
