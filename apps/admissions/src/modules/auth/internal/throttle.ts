import { rateLimitKey, type SharedStore } from "@platform/server";
import { problem } from "../../../problems.ts";

export type LoginThrottlePolicy = {
  /** Failed logins per account inside the window before the account is locked. */
  maxFailuresPerAccount: number;
  /** Failed logins per client IP (IPv6: per /64) inside the window. */
  maxFailuresPerIp: number;
  windowMs: number;
};

const subjects = (email: string, clientIp: string) => [
  { kind: "account", id: email },
  { kind: "ip", id: rateLimitKey(clientIp) },
];

const lockKey = (kind: string, id: string) => `login:lock:${kind}:${id}`;
const failuresKey = (kind: string, id: string) => `login:failures:${kind}:${id}`;

/**
 * Refuses the attempt (429 with Retry-After) while the account or the client IP is locked.
 * Checked before the password, so a locked account cannot be brute-forced with the right
 * password either.
 */
export async function assertLoginAllowed(
  store: SharedStore,
  email: string,
  clientIp: string,
  nowMs: number,
): Promise<void> {
  for (const { kind, id } of subjects(email, clientIp)) {
    const until = Number((await store.get(lockKey(kind, id))) ?? 0);
    if (until > nowMs) {
      const retryAfter = String(Math.max(1, Math.ceil((until - nowMs) / 1000)));
      throw problem("LOGIN_THROTTLED", {
        detail: `Too many failed logins for this ${kind === "ip" ? "address" : "account"}; retry in ${retryAfter} s`,
        headers: { "retry-after": retryAfter },
      });
    }
  }
}

/**
 * Counts a failure in a sliding window per account and per IP. The failure that fills a
 * window locks that subject until the oldest failure in it leaves the window.
 */
export async function recordLoginFailure(
  store: SharedStore,
  policy: LoginThrottlePolicy,
  email: string,
  clientIp: string,
  nowMs: number,
): Promise<void> {
  for (const { kind, id } of subjects(email, clientIp)) {
    const limit = kind === "ip" ? policy.maxFailuresPerIp : policy.maxFailuresPerAccount;
    const hit = await store.hitWindow(failuresKey(kind, id), limit, policy.windowMs, nowMs);
    if (!hit.allowed || hit.count >= limit) {
      const until = hit.oldestMs + policy.windowMs;
      await store.set(lockKey(kind, id), String(until), Math.max(1, until - nowMs));
    }
  }
}
