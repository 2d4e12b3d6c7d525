import type { Server } from "bun";
import { type DocumentDecoration, Elysia } from "elysia";
import { clientIpOf } from "./client.ts";
import { rateLimitKey, type TrustedProxies } from "./client-ip.ts";
import { HttpProblem } from "./problem.ts";
import { type RateLimiter, rateLimitHeaders } from "./rate-limit.ts";

/**
 * One route's limit, switched on with the `rateLimit` macro: whose quota a request spends
 * (`ip`: the client address, an IPv6 client by its /64; `user`: the signed-in account) and
 * the limiter holding the policy.
 */
export type RateLimitRule = { key: "ip" | "user"; limiter: RateLimiter };

/** The OpenAPI extension a limited operation carries: its policy, for clients to read. */
export const RATE_LIMIT_EXTENSION = "x-rate-limit";

// DocumentDecoration (OpenAPI's operation object) has no index type for `x-` extensions.
const documented = ({ key, limiter }: RateLimitRule) =>
  ({
    [RATE_LIMIT_EXTENSION]: {
      key,
      policy: limiter.policy.name,
      limit: limiter.policy.limit,
      windowSeconds: limiter.policy.windowMs / 1000,
    },
  }) as DocumentDecoration;

export type RateLimitOptions = {
  trusted: TrustedProxies;
  /**
   * The signed-in account's id in a route's context, for `key: "user"`; the app's auth
   * resolves it before the macro's check runs (list `auth` before `rateLimit` in the route).
   */
  userOf?: (context: object) => string | null | undefined;
};

type Set = { headers: Record<string, unknown> };

/** Spends one unit of the rule's quota; the RateLimit headers go on whatever the answer is. */
async function spend(limiter: RateLimiter, key: string, set: Set): Promise<HttpProblem | null> {
  const decision = await limiter.check(key);
  const headers = rateLimitHeaders(limiter.policy, decision);
  Object.assign(set.headers, headers);
  if (decision.allowed) return null;
  const { limit, windowMs } = limiter.policy;
  return new HttpProblem("RATE_LIMITED", {
    detail: `Rate limit of ${limit} requests per ${windowMs / 1000} s exceeded; retry in ${headers["retry-after"]} s`,
    headers,
  });
}

/**
 * Rate limits as a per-route macro (decisions.md, "Client IP and rate limits"):
 * `.post("/register/", handler, { rateLimit: { key: "ip", limiter } })`.
 *
 * `ip` is checked before the request is validated or authenticated, so invalid requests are
 * not free: a 401, a 422 and a body that cannot be read at all (400, 413, 415) each spend the
 * quota (the platform's parser holds its refusal back until this check has run, see http.ts).
 * The body is read (within the JSON cap) before the check: Elysia parses before any route hook.
 * `user` is checked once the account is known (after authentication) and before the handler
 * reads anything, so an upload streamed by its handler is refused before a byte of it is read.
 */
export function rateLimits(opts: RateLimitOptions) {
  const ipKey = (request: Request, server: Server<unknown> | null) =>
    rateLimitKey(clientIpOf(request, server, opts.trusted));
  return new Elysia({ name: "rate-limits", seed: opts.trusted.spec }).macro({
    rateLimit(rule: RateLimitRule) {
      const { limiter } = rule;
      if (rule.key === "user") {
        return {
          detail: documented(rule),
          async beforeHandle(context) {
            const user = opts.userOf?.(context);
            if (!user) return;
            const refused = await spend(limiter, `user:${user}`, context.set);
            if (refused) throw refused;
          },
        };
      }
      return {
        detail: documented(rule),
        async transform({ request, server, set }) {
          const refused = await spend(limiter, ipKey(request, server), set);
          if (refused) throw refused;
        },
      };
    },
  });
}
