import { createRateLimiter, HttpProblem, rateLimitHeaders } from "@platform/server";
import type { AccountDeps } from "./deps.ts";

const HOUR = 3_600_000;

/**
 * The per-address (or per-account) quota of account emails: one mailbox cannot be flooded
 * with links, whoever asks and from however many addresses. Spends one unit; false when the
 * quota is used up.
 */
export async function spendEmailQuota(
  deps: Pick<AccountDeps, "store" | "limits" | "now">,
  key: string,
) {
  const limiter = createRateLimiter(
    deps.store,
    { name: "account-emails", limit: deps.limits.emailsPerAccountPerHour, windowMs: HOUR },
    deps.now,
  );
  const decision = await limiter.check(key);
  return { ...decision, headers: rateLimitHeaders(limiter.policy, decision) };
}

/** As `spendEmailQuota`, for a signed-in account: a spent quota is 429 RATE_LIMITED. */
export async function assertEmailQuota(deps: AccountDeps, userId: string): Promise<void> {
  const spent = await spendEmailQuota(deps, `user:${userId}`);
  if (spent.allowed) return;
  throw new HttpProblem("RATE_LIMITED", {
    detail: `At most ${deps.limits.emailsPerAccountPerHour} account emails per hour; retry in ${spent.headers["retry-after"]} s`,
    headers: spent.headers,
  });
}
